/**
 * What a delivery's `statusCode` most likely means, and what to do next.
 * Spec part 6 gives the causes of 0, 401, 404 and 500; the rest are the usual meanings of
 * HTTP status classes, said for the person who owns the customer endpoint.
 */

import { reasonPhrase, statusCodeLabel } from "@/lib/domain/reason-phrase";

export { reasonPhrase, statusCodeLabel };

type StatusClass =
  "none" | "success" | "informational" | "redirect" | "client-error" | "server-error" | "unknown";

interface StatusMeaning {
  statusCode: number;
  class: StatusClass;
  /** Short name, e.g. "No connection", "HTTP 404 Not Found". */
  title: string;
  /** The likely cause. */
  cause: string;
  /** What to do next. */
  nextStep: string;
  /** True when the cause is the one the API documents for this code. */
  fromSpec: boolean;
}

function title(statusCode: number): string {
  const phrase = reasonPhrase(statusCode);
  return phrase ? `HTTP ${statusCode} ${phrase}` : `HTTP ${statusCode}`;
}

type Explanation = Pick<StatusMeaning, "cause" | "nextStep"> & { fromSpec?: boolean };

/** Codes with a cause of their own; the ones the API documents first. */
const SPECIFIC: Record<number, Explanation> = {
  401: {
    cause:
      "The customer endpoint rejected the service's secret header: its check of the hub's signature failed.",
    nextStep:
      "Make the endpoint verify the secret header with this webhook's current secret (it changes when the webhook's secret is regenerated), " +
      "and check that no proxy in front of it strips headers.",
    fromSpec: true,
  },
  404: {
    cause: "The route does not exist on the customer server.",
    nextStep:
      "Compare the webhook's endpoint URL with the routes the server serves: look for a typo, a missing path prefix, or a deployment that removed the route.",
    fromSpec: true,
  },
  500: {
    cause: "Internal error of the customer server while processing the payload.",
    nextStep:
      'Look in the endpoint server\'s own logs around the time in "Sent at"; the delivery\'s "Response body" may show the error. ' +
      "Fix the handler, then send a test message to confirm.",
    fromSpec: true,
  },
  403: {
    cause: "The endpoint (or a firewall, WAF or IP allow-list in front of it) refused the hub's request.",
    nextStep:
      "Allow the hub's requests through: check IP allow-lists, WAF rules and the endpoint's authorization settings.",
  },
  405: {
    cause: "The endpoint does not accept POST requests on this route.",
    nextStep: "Make the route accept POST, or point the webhook at the route that does.",
  },
  408: {
    cause: "The endpoint gave up waiting for the hub's request.",
    nextStep: "Check the endpoint's request timeouts and any proxy in front of it.",
  },
  410: {
    cause: "The endpoint says this route is gone for good.",
    nextStep: "Point the webhook at the endpoint's current address.",
  },
  413: {
    cause: "The payload was larger than the endpoint (or its proxy) accepts.",
    nextStep: "Raise the request body size limit of the endpoint or its proxy.",
  },
  415: {
    cause: "The endpoint does not accept the payload's content type (JSON).",
    nextStep: "Make the endpoint accept `application/json` request bodies.",
  },
  429: {
    cause: "The endpoint is rate-limiting the hub's deliveries.",
    nextStep: "Raise the endpoint's rate limit for the hub, or make it acknowledge deliveries faster.",
  },
  502: {
    cause:
      "A proxy or load balancer in front of the endpoint could not get an answer from the application behind it.",
    nextStep: "Check that the application behind the proxy is running and healthy.",
  },
  503: {
    cause: "The endpoint is unavailable: overloaded, in maintenance, or starting up.",
    nextStep:
      "Check the endpoint's health and capacity; if it was a deployment, send a test message once it is back.",
  },
  504: {
    cause: "A proxy in front of the endpoint timed out waiting for the application behind it.",
    nextStep: "Make the handler answer sooner: acknowledge the delivery first and do slow work afterwards.",
  },
};

function classOf(statusCode: number): StatusClass {
  if (statusCode === 0) return "none";
  if (statusCode >= 100 && statusCode < 200) return "informational";
  if (statusCode >= 200 && statusCode < 300) return "success";
  if (statusCode >= 300 && statusCode < 400) return "redirect";
  if (statusCode >= 400 && statusCode < 500) return "client-error";
  if (statusCode >= 500 && statusCode < 600) return "server-error";
  return "unknown";
}

const BY_CLASS: Record<StatusClass, Explanation> = {
  none: {
    cause:
      "No connection could be made or no timely answer: the server is down, the URL is not publicly reachable, or its SSL certificate is invalid.",
    nextStep:
      "Check that the endpoint's server is up, that its URL resolves and is reachable from the internet " +
      "(not localhost or a private network), and that its TLS certificate is valid. " +
      "If it is slow, make it answer quickly and do the work afterwards.",
    fromSpec: true,
  },
  success: {
    cause: "The endpoint accepted the delivery.",
    nextStep:
      "Nothing to fix. If the event still seems missing on your side, check what the endpoint did with it after answering.",
  },
  informational: {
    cause:
      "The endpoint answered with an informational status instead of a final answer, so the delivery counts as failed.",
    nextStep: "Make the endpoint answer with a 2xx status once it has accepted the delivery.",
  },
  redirect: {
    cause:
      "The endpoint answered with a redirect instead of accepting the delivery, so the delivery counts as failed (only 2xx is a success).",
    nextStep:
      "Set the webhook's endpoint to the final address the server redirects to (often https instead of http, or a trailing slash).",
  },
  "client-error": {
    cause: "The endpoint refused the delivery as sent (a client error, HTTP 4xx).",
    nextStep:
      "Check what the endpoint expects (authentication, method, content type, payload shape); its response body often says why.",
  },
  "server-error": {
    cause: "The endpoint failed while handling the delivery (a server error, HTTP 5xx).",
    nextStep:
      'Look in the endpoint server\'s logs around the time in "Sent at"; the response body may show the error.',
  },
  unknown: {
    cause:
      "The endpoint answered with a status code outside the HTTP range, so the delivery counts as failed.",
    nextStep: "Check the endpoint's server: it is not answering with a valid HTTP status.",
  },
};

export function statusMeaning(statusCode: number): StatusMeaning {
  const code = Number.isInteger(statusCode) && statusCode >= 0 ? statusCode : -1;
  const statusClass = code < 0 ? "unknown" : classOf(code);
  const explanation = SPECIFIC[code] ?? BY_CLASS[statusClass];
  return {
    statusCode,
    class: statusClass,
    title: statusClass === "none" ? "No connection" : title(statusCode),
    cause: explanation.cause,
    nextStep: explanation.nextStep,
    fromSpec: explanation.fromSpec ?? false,
  };
}
