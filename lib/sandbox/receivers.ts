/**
 * Customer endpoints the sandbox hosts itself, so demo webhooks (and tests) see every outcome
 * of spec part 6 live. Plain routes, not guarded: they stand for someone else's server.
 *
 *   POST /_sandbox/receivers/ok              200 JSON
 *   POST /_sandbox/receivers/unauthorized    401 JSON unless x-webhook-secret is RECEIVER_EXPECTED_SECRET
 *   POST /_sandbox/receivers/not-found       404 HTML
 *   POST /_sandbox/receivers/error           500 HTML error page
 *   POST /_sandbox/receivers/hang            never answers (the delivery times out: statusCode 0)
 *   POST /_sandbox/receivers/status/{code}   answers that status (200-599; 3xx with a Location)
 *   POST /_sandbox/receivers/slow?ms=&status= answers after ms milliseconds (at most 60000)
 *   POST /_sandbox/receivers/big?bytes=      200 text/plain of that many bytes (at most 10 MiB)
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { secretsEqual } from "./keys";
import { HttpError, sendJson, sendText, type Router } from "./http";

export const RECEIVERS_PATH = "/_sandbox/receivers";

/** The header carrying the webhook's secret on every delivery (see delivery-worker.ts). */
export const SECRET_HEADER = "x-webhook-secret";

/** The secret the `unauthorized` receiver accepts. Demo webhooks are given other secrets, so it answers 401. */
export const RECEIVER_EXPECTED_SECRET = "whsec_demo_receiver_expects_this_secret";

/** The URL of the receiver `name` (e.g. `ok`) on the sandbox listening at `baseUrl`. */
export const receiverUrl = (baseUrl: string, name: string) => `${baseUrl}${RECEIVERS_PATH}/${name}`;

/** What the `unauthorized` receiver answers without the expected secret (also the demo history's 401 body). */
export const UNAUTHORIZED_BODY = {
  error: "unauthorized",
  message: `invalid or missing ${SECRET_HEADER} header`,
};

const MAX_SLOW_MS = 60_000;
const MAX_BIG_BYTES = 10 * 1024 * 1024;
/** A hanging request is let go after this long, so nothing leaks if the caller never gives up. */
const HANG_LIMIT_MS = 10 * 60_000;

/** The 404 page the `not-found` receiver answers (also the body of the demo history's 404 logs). */
export const notFoundHtml = (path: string) =>
  `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Error</title></head>\n<body><pre>Cannot POST ${path}</pre></body>\n</html>\n`;

const errorHtml = () =>
  `<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n<body>\n<h1>Internal Server Error</h1>\n<p>TypeError: ` +
  `Cannot read properties of undefined (reading 'text')<br>\n&nbsp;&nbsp;&nbsp;&nbsp;at handleMessage (/srv/app/webhooks.js:42:31)</p>\n</body></html>\n`;

function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, "invalid_query", `${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

function answerStatus(req: IncomingMessage, res: ServerResponse, status: number) {
  if (status >= 200 && status < 300) {
    sendJson(res, status, { received: true });
  } else if (status >= 300 && status < 400) {
    sendText(res, status, "text/plain; charset=utf-8", `Redirecting to https://example.invalid/moved`, {
      location: "https://example.invalid/moved",
    });
  } else {
    sendText(
      res,
      status,
      "text/plain; charset=utf-8",
      `Receiver answered ${status} as asked (${req.url ?? ""}).`,
    );
  }
}

export function addReceiverRoutes(router: Router): void {
  const at = (name: string) => `${RECEIVERS_PATH}/${name}`;

  router.add("POST", at("ok"), ({ req, res }) => {
    req.resume();
    sendJson(res, 200, { received: true });
  });

  router.add("POST", at("unauthorized"), ({ req, res }) => {
    req.resume();
    const got = req.headers[SECRET_HEADER];
    if (typeof got === "string" && secretsEqual(got, RECEIVER_EXPECTED_SECRET)) {
      sendJson(res, 200, { received: true });
      return;
    }
    sendJson(res, 401, UNAUTHORIZED_BODY);
  });

  router.add("POST", at("not-found"), ({ req, res }) => {
    req.resume();
    sendText(res, 404, "text/html; charset=utf-8", notFoundHtml("/webhooks/messages"));
  });

  router.add("POST", at("error"), ({ req, res }) => {
    req.resume();
    sendText(res, 500, "text/html; charset=utf-8", errorHtml());
  });

  router.add("POST", at("hang"), ({ req, res }) => {
    req.resume();
    const timer = setTimeout(() => sendText(res, 504, "text/plain", "hang receiver gave up"), HANG_LIMIT_MS);
    timer.unref();
    res.on("close", () => clearTimeout(timer));
  });

  router.add("POST", at("status/:code"), ({ req, res, params }) => {
    req.resume();
    const code = Number(params.code);
    if (!Number.isInteger(code) || code < 200 || code > 599) {
      throw new HttpError(400, "invalid_status", "The status must be a whole number from 200 to 599.");
    }
    answerStatus(req, res, code);
  });

  router.add("POST", at("slow"), ({ req, res, url }) => {
    req.resume();
    const ms = intParam(url, "ms", 1000, 0, MAX_SLOW_MS);
    const status = intParam(url, "status", 200, 200, 599);
    const timer = setTimeout(() => answerStatus(req, res, status), ms);
    res.on("close", () => clearTimeout(timer));
  });

  router.add("POST", at("big"), ({ req, res, url }) => {
    req.resume();
    const bytes = intParam(url, "bytes", 200 * 1024, 0, MAX_BIG_BYTES);
    sendText(res, 200, "text/plain; charset=utf-8", "x".repeat(bytes));
  });
}
