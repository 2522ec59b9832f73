import type { ErrorBody, FieldErrors } from "@/lib/domain/api-error";
import { parseRetryAfter } from "@/lib/domain/retry-after";
import { POLL_HEADER } from "@/lib/domain/query-keys";

/**
 * The browser's side of the console's own API (`/api/**`). Every call goes through
 * `apiRequest`, which throws an `ApiError` on any non-2xx answer, so React Query shows errors
 * instead of rendering an error body as data.
 */

export class ApiError extends Error {
  /** HTTP status; 0 when the console itself could not be reached. */
  readonly status: number;
  /** The `error.code` of the answer (e.g. `rate_limited`), or `network`/`http_<status>`. */
  readonly code: string;
  /** Seconds to wait, from `Retry-After` (429). */
  readonly retryAfter: number | null;
  readonly fields: FieldErrors | null;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { retryAfter?: number | null; fields?: FieldErrors | null } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.retryAfter = options.retryAfter ?? null;
    this.fields = options.fields ?? null;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Words for a status when the answer did not carry a message of its own. */
function fallbackMessage(status: number, retryAfter: number | null = null): string {
  switch (status) {
    case 0:
      return "The console could not be reached. Check your network connection, then try again.";
    case 400:
      return "The request was not valid.";
    case 401:
      return "Your session has ended or the Messaging Hub rejected your API key. Sign in again.";
    case 403:
      return "The console refused this request.";
    case 404:
      return "Not found: check the ID, or sign in with the key of the application that owns it.";
    case 429:
      return `Too many requests. Wait ${retryAfter ?? "a few"} seconds, then try again.`;
    case 501:
      return "The Messaging Hub API does not offer this yet.";
    case 502:
      return "The Messaging Hub could not be reached or answered with an error. Try again in a moment.";
    case 504:
      return "The Messaging Hub did not answer in time. It may be slow or overloaded; try again in a moment.";
    default:
      return status >= 500
        ? `The console failed with HTTP ${status}. Try again in a moment.`
        : `The request failed with HTTP ${status}.`;
  }
}

/** An error answer as it may arrive: any part of it can be missing or of the wrong type. */
type ErrorAnswer = { error?: { [K in keyof ErrorBody["error"]]?: unknown } };

async function toApiError(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  let body: ErrorAnswer | null = null;
  try {
    body = (await response.json()) as ErrorAnswer;
  } catch {
    body = null;
  }
  const error = body?.error;
  const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
  const message =
    typeof error?.message === "string" && error.message
      ? error.message
      : fallbackMessage(response.status, retryAfter);
  const fields = error?.fields && typeof error.fields === "object" ? (error.fields as FieldErrors) : null;
  return new ApiError(response.status, code, message, { retryAfter, fields });
}

interface ApiRequestInit {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
  /** An auto-refresh poll, not a person's request: marked with POLL_HEADER. */
  poll?: boolean;
}

/**
 * `path` with the page's application (`?app=` of the address bar) added, unless it names one
 * already: on a page of application X, every call uses X's key, whatever another tab switched to.
 */
export function withPageApp(path: string, search = window.location.search): string {
  const app = new URLSearchParams(search).get("app");
  if (!app || /[?&]app=/.test(path)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}app=${encodeURIComponent(app)}`;
}

/** Same-origin call; resolves with a 2xx answer, throws `ApiError` otherwise. */
export async function apiFetch(path: string, init: ApiRequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(withPageApp(path), {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...(init.poll ? { [POLL_HEADER]: "1" } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, "network", fallbackMessage(0));
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** Same-origin JSON call; resolves with the parsed body of a 2xx answer, throws `ApiError` otherwise. */
export async function apiRequest<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const response = await apiFetch(path, init);
  if (response.status === 204) return null as T;
  const text = await response.text();
  if (text === "") return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(
      response.status,
      "invalid_answer",
      "The console answered with something that is not JSON. Try again.",
    );
  }
}

/** Where the browser goes when the key is rejected: the session ends and /login says why. */
export const SESSION_END_PATH = "/api/session/end";

/** Where the browser goes when the hub rejects one of several applications' keys: it is marked there, with Replace key. */
export const APPLICATIONS_PATH = "/applications";

/** Set once the person signs out: a 401 from a request still in flight is then expected, not "key rejected". */
let signingOut = false;

export function beginSignOut(): void {
  signingOut = true;
}

export function endSession(reason: "key_rejected" | "expired" = "key_rejected"): void {
  if (signingOut) return;
  // A route handler, not a page: only a full navigation runs it (and drops every cached answer).
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`${SESSION_END_PATH}?reason=${reason}`);
}
