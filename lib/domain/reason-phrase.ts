/**
 * The reason phrase of an HTTP status code and how the log table labels a code: small, so the
 * table can show them without loading the longer meanings of status-meaning.ts.
 */

const REASON_PHRASES: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function reasonPhrase(statusCode: number): string | null {
  return REASON_PHRASES[statusCode] ?? null;
}

/** How the table's "HTTP status" cell reads a code: `0` is "No connection". */
export function statusCodeLabel(statusCode: number): string {
  return statusCode === 0 ? "No connection" : String(statusCode);
}
