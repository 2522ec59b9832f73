/**
 * The console's one error type. Every failure a route handler answers with is an AppError,
 * so every error answer has the same JSON shape: `{ "error": { "code", "message" } }`,
 * with the HTTP status that fits the code. Messages are written for a person: what happened
 * and what to do. They never contain the API key.
 */
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type FieldErrors } from "@/lib/domain/api-error";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Seconds, sent as `Retry-After` (429 and 503-like answers). */
  readonly retryAfter?: number;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldErrors; retryAfter?: number; cause?: unknown } = {},
  ) {
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
    return {
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }

  /** The JSON error answer (`Cache-Control: no-store` is added by defineRoute, like every answer's). */
  toResponse(): Response {
    const headers = new Headers();
    if (this.retryAfter !== undefined)
      headers.set("Retry-After", String(Math.max(1, Math.ceil(this.retryAfter))));
    return Response.json(this.toBody(), { status: this.status, headers });
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
