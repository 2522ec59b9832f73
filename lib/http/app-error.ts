/**
 * The console's one error type. Every failure a route handler answers with is an AppError,
 * so every error answer has the same JSON shape: `{ "error": { "code", "message" } }`,
 * with the HTTP status that fits the code. Messages are written for a person: what happened
 * and what to do. They never contain the API key.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Seconds, sent as `Retry-After` (429 and 503-like answers). */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: { fields?: FieldErrors; retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }

  /** The JSON error answer (`Cache-Control: no-store` is added by defineRoute, like every answer's). */
  toResponse(): Response {
    const headers = new Headers();
    if (this.retryAfter !== undefined) headers.set("Retry-After", String(Math.max(1, Math.ceil(this.retryAfter))));
    return Response.json(this.toBody(), { status: this.status, headers });
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
