/**
 * The console API's error answer, one shape for the route side and the browser side:
 * `{ "error": { "code", "message", "fields"? } }`, with the HTTP status that fits the code.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  /** The hub rejected one application's key; the session and its other applications stay. */
  key_rejected: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  not_supported: 501,
  upstream_error: 502,
  upstream_unreachable: 502,
  upstream_invalid: 502,
  upstream_timeout: 504,
  /** The watch's database does not answer; the live API still does. */
  store_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Messages per field, keyed by the field's name in the request (`from`, `content.text`). */
export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors };
}
