import "server-only";
import { randomUUID } from "node:crypto";
import type { $ZodType, output } from "zod/v4/core";
import { AppError, isAppError } from "@/lib/server/app-error";
import {
  DEFAULT_BODY_LIMIT_BYTES,
  isJsonContentType,
  parseFormBody,
  parseJsonBody,
  parseQuery,
  parseWith,
} from "@/lib/server/http/parse";
import {
  STATE_CHANGING_METHODS,
  assertSameOrigin,
  warnIfCookieWillBeDropped,
} from "@/lib/server/http/same-origin";
import { clientAddress, type RateLimiter } from "@/lib/server/http/rate-limit";
import { arrivedAt } from "@/lib/server/http/arrival";
import { logRequest, requestIdOf, routePattern } from "@/lib/server/http/request-log";
import { isStopping } from "@/lib/server/stopping";
import type { HubCall } from "@/lib/server/hub/client";
import { POLL_HEADER } from "@/lib/domain/query-keys";
import { parseApplicationId } from "@/lib/domain/applications";
import {
  applicationOf,
  clearedSessionCookie,
  currentApplication,
  hasSessionCookie,
  readSession,
  revokeSession,
  sealedCookie,
  sessionCookie,
  sessionDataOf,
  type Application,
  type SessionData,
  type SessionState,
} from "@/lib/server/session/session";
import { markRejected } from "@/lib/server/session/applications";
import { keyRejected, storeAccess } from "@/lib/server/watch/store-access";

/**
 * The one way to write a route handler of the console's API.
 *
 * Order, always: same-origin check (state-changing methods) → parse params → parse query →
 * parse body → rate limit (when given) → `handle` (which reads the session, then acts). Whatever
 * `handle` throws becomes the JSON error answer: an AppError as it is, anything else a 500 logged
 * without the API key. An `unauthorized` error also ends the session (revoked, and the cookie
 * cleared in that same answer), unless the session holds several applications: then only the
 * application whose key the hub rejected is marked (answer `key_rejected`), and the others stay usable.
 * A poll (POLL_HEADER) gets the 401 and ends no session.
 *
 * Which application: every route takes `?app=<id>` (the browser adds the page's own, see
 * lib/browser/api.ts); without it, the session's current one. It is taken out of the query before
 * the route's own schema reads it.
 * Every answer is `Cache-Control: no-store`: they all depend on the session, and carries
 * `X-Request-Id`; each request is logged as one JSON line (request-log.ts).
 */

type Parsed<S> = S extends $ZodType ? output<S> : undefined;

export interface RouteSession {
  /** The session as the request's cookie has it (read once per request). */
  state(): Promise<SessionState>;
  /** The application `?app=` names, or the current one; 401 when not signed in, 404 for an id the session does not hold. */
  app(): Promise<Application>;
  /** That application's key (see `app()`). */
  apiKey(): Promise<string>;
  /**
   * `app()`, for a route that reads or changes what the console stores for it: refused with the
   * hub's 401 when its key is known rejected (lib/server/watch/store-access.ts).
   */
  storeApp(): Promise<Application>;
  /**
   * The session's applications whose stored data a route may read or change (those whose key is
   * not known rejected; a newly known one is marked in the cookie); the hub's 401 when none is left.
   */
  storeApps(): Promise<Application[]>;
  /**
   * Revokes the request's session, if any, then seals `apiKey` into a fresh session cookie sent
   * with this answer (and warns, once, if the browser will drop it).
   */
  signIn(apiKey: string): Promise<SessionData>;
  /** Seals changed applications into the session cookie sent with this answer (same session id and end). */
  save(data: SessionData): Promise<void>;
  /** Ends the session: revokes it on every instance (a copied cookie stops working) and clears the cookie in this answer. */
  end(): Promise<void>;
}

export interface RouteInput<P, Q, B> {
  request: Request;
  params: P;
  query: Q;
  body: B;
  session: RouteSession;
  /** Aborted when the client goes away (it is part of `hub()`'s call). */
  signal: AbortSignal;
  /** The request carries POLL_HEADER: an auto-refresh poll, which a read a few seconds old may answer. */
  poll: boolean;
  /** The hub call of this request: the key, the request's signal and arrival time, and its upstream status noted for the log. */
  hub(apiKey: string): HubCall;
}

export interface RouteSpec<
  PS extends $ZodType | undefined,
  QS extends $ZodType | undefined,
  BS extends $ZodType | undefined,
> {
  params?: PS;
  query?: QS;
  body?: BS;
  /** The body as a plain HTML form posts it (application/x-www-form-urlencoded), instead of JSON. */
  form?: BS;
  bodyLimitBytes?: number;
  /** Counts each same-origin attempt whose input parsed, by client address; 429 with Retry-After over the limit. */
  rateLimit?: RateLimiter;
  handle(input: RouteInput<Parsed<PS>, Parsed<QS>, Parsed<BS>>): Promise<Response>;
}

/** What Next calls: `(request, { params })`, params a Promise (Next 15+). */
export type RouteHandler = (request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>;

export function defineRoute<
  PS extends $ZodType | undefined = undefined,
  QS extends $ZodType | undefined = undefined,
  BS extends $ZodType | undefined = undefined,
>(spec: RouteSpec<PS, QS, BS>): RouteHandler {
  return async (request, context) => {
    const since = arrivedAt();
    const requestId = requestIdOf(request);
    const session = new RequestSession(request);
    const upstream: { status?: number; shared?: boolean } = {};
    let rawParams: Record<string, unknown> = {};
    const hub = (apiKey: string): HubCall => ({
      apiKey,
      signal: request.signal,
      since,
      report: (status, shared) => Object.assign(upstream, { status, shared }),
    });
    let response: Response;
    try {
      rawParams = ((await context?.params) ?? {}) as Record<string, unknown>;
      if (STATE_CHANGING_METHODS.has(request.method)) assertSameOrigin(request);
      const params = (spec.params ? parseWith(spec.params, rawParams) : undefined) as Parsed<PS>;
      // `?app=` is every route's (RequestSession.app()), not the route's own query.
      const url = new URL(request.url);
      url.searchParams.delete("app");
      const query = (spec.query ? parseQuery(url, spec.query) : undefined) as Parsed<QS>;
      let body = undefined as Parsed<BS>;
      if (spec.form) {
        body = (await parseFormBody(
          request,
          spec.form,
          spec.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
        )) as Parsed<BS>;
      } else if (spec.body) {
        body = (await parseJsonBody(
          request,
          spec.body,
          spec.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
        )) as Parsed<BS>;
      } else if (
        request.headers.has("content-type") &&
        !isJsonContentType(request.headers.get("content-type"))
      ) {
        throw new AppError("unsupported_media_type", "This route takes no body; send none, or JSON.");
      }
      // Counted only now: a cross-site or malformed attempt could not succeed, so it costs nobody a try.
      await spec.rateLimit?.hit(clientAddress(request));
      response = await spec.handle({
        request,
        params,
        query,
        body,
        session,
        signal: request.signal,
        poll: isPoll(request),
        hub,
      });
    } catch (error) {
      response = await errorResponse(error, request, session, requestId);
    }
    response = finish(response, session, requestId);
    const clientAborted = response.status === CLIENT_ABORTED;
    logRequest({
      requestId,
      method: request.method,
      route: routePattern(pathOf(request), rawParams),
      status: response.status,
      durationMs: performance.now() - since,
      upstreamStatus: upstream.status,
      upstreamShared: upstream.shared,
      clientAborted,
    });
    return response;
  };
}

/**
 * The status logged for a request whose client went away before its answer (nginx's 499): no
 * one reads the answer, and it is the client's doing, not an error of the console.
 */
const CLIENT_ABORTED = 499;

function isPoll(request: Request): boolean {
  return request.headers.get(POLL_HEADER) === "1";
}

async function errorResponse(
  error: unknown,
  request: Request,
  session: RequestSession,
  requestId: string,
): Promise<Response> {
  if (await clientWentAway(request, error)) return new Response(null, { status: CLIENT_ABORTED });
  if (isAppError(error)) {
    // A poll is a read nobody asked for: its 401 leaves the session to the person's next request.
    if (error.code === "unauthorized" && hasSessionCookie(request) && !isPoll(request))
      return (await session.rejected(error)).toResponse();
    return error.toResponse();
  }
  const reference = randomUUID();
  // Learn the session's key (if any) so the log line can be scrubbed of it, whenever it failed.
  await session.state().catch(() => undefined);
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(
    `[console] unexpected error ${reference} (request ${requestId}) in ${request.method} ${pathOf(request)}: ${session.scrub(detail)}`,
  );
  return new AppError(
    "internal",
    `Something went wrong in the console (reference ${reference}). Try again; if it keeps happening, report the reference.`,
  ).toResponse();
}

/**
 * Whether the request failed because its client left: its signal aborted (a cancelled fetch, a
 * closed connection), or its body broke off mid-upload. Node reports the latter on the body a
 * moment before it aborts the signal, hence the wait for the next turn of the event loop.
 */
async function clientWentAway(request: Request, error: unknown): Promise<boolean> {
  if (request.signal.aborted) return true;
  if (isAppError(error)) return false;
  await new Promise((resolve) => setImmediate(resolve));
  return request.signal.aborted;
}

/** The path only (a query could carry anything); never throws. */
function pathOf(request: Request): string {
  try {
    return new URL(request.url).pathname;
  } catch {
    return "(unknown path)";
  }
}

/** Handlers answer with mutable headers (`Response.json`, `new Response`), never `Response.redirect`. */
function finish(response: Response, session: RequestSession, requestId: string): Response {
  response.headers.set("Cache-Control", "no-store");
  response.headers.set("X-Request-Id", requestId);
  // The server is stopping: the client opens a new connection (to another instance) next time.
  if (isStopping()) response.headers.set("Connection", "close");
  for (const cookie of session.setCookies) response.headers.append("Set-Cookie", cookie);
  return response;
}

class RequestSession implements RouteSession {
  readonly setCookies: string[] = [];
  private cached?: Promise<SessionState>;
  /** Keys this request has seen, so a log line can be scrubbed of them. */
  private readonly secrets = new Set<string>();

  /** The application this request used, once `app()` resolved it. */
  private used?: Application;

  constructor(private readonly request: Request) {}

  state(): Promise<SessionState> {
    this.cached ??= readSession(this.request).then((state) => {
      if (state.status === "signed_in")
        for (const app of state.data.applications) this.secrets.add(app.apiKey);
      return state;
    });
    return this.cached;
  }

  async app(): Promise<Application> {
    const state = await this.state();
    const appParams = new URL(this.request.url).searchParams.getAll("app");
    const named = parseApplicationId(appParams);
    if (appParams.length > 1 || (appParams.length === 1 && !named)) {
      const message = "app: give one application id (16 hex characters), or none.";
      throw new AppError("bad_request", message, { fields: { app: [message] } });
    }
    this.used = applicationOf(state, named);
    return this.used;
  }

  async apiKey(): Promise<string> {
    return (await this.app()).apiKey;
  }

  async storeApp(): Promise<Application> {
    const app = await this.app();
    if ((await storeAccess([app])).rejected.length > 0) throw keyRejected(app);
    return app;
  }

  async storeApps(): Promise<Application[]> {
    const state = await this.state();
    const data = sessionDataOf(state);
    const { allowed, rejected } = await storeAccess(data.applications);
    if (allowed.length === 0) throw keyRejected(currentApplication(data));
    const unmarked = rejected.filter((id) => !data.applications.find((app) => app.id === id)!.rejected);
    if (unmarked.length > 0) {
      // Marked in the cookie too, so the header and the Applications page say so; left out if it would not fit.
      await this.save(unmarked.reduce(markRejected, data)).catch(() => undefined);
    }
    return allowed;
  }

  async save(data: SessionData): Promise<void> {
    const setCookie = await sealedCookie(data);
    this.setCookies.length = 0;
    this.setCookies.push(setCookie);
  }

  /**
   * A 401: with no session, or its only application's key rejected, the session ends. With
   * several, the application whose key the hub rejected is marked and the others stay.
   */
  async rejected(error: AppError): Promise<AppError> {
    const state = await this.state().catch(() => undefined);
    const used = this.used;
    if (state?.status !== "signed_in" || !used || state.data.applications.length < 2) {
      await this.end();
      return error;
    }
    // A mark that would not fit the cookie is left out: the answer still says which key was rejected.
    await this.save(markRejected(state.data, used.id)).catch(() => undefined);
    return new AppError(
      "key_rejected",
      `The Messaging Hub rejected the key of "${used.name}" (…${used.keyHint || "short key"}): it was rotated or revoked. ` +
        "Replace its key on the Applications page; your other applications still work.",
    );
  }

  async signIn(apiKey: string): Promise<SessionData> {
    this.secrets.add(apiKey);
    // Signing in replaces the session: a copy of the old cookie must not keep working beside the new one.
    await this.revokeCurrent();
    const { setCookie, data } = await sessionCookie(apiKey);
    this.setCookies.length = 0;
    this.setCookies.push(setCookie);
    warnIfCookieWillBeDropped(this.request);
    return data;
  }

  async end(): Promise<void> {
    await this.revokeCurrent();
    this.setCookies.length = 0;
    this.setCookies.push(clearedSessionCookie());
  }

  /** Revokes the session the request's cookie holds, if any, on every instance. */
  private async revokeCurrent(): Promise<void> {
    const state = await this.state().catch(() => undefined);
    if (state?.status === "signed_in") await revokeSession(state.data);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("[api key]");
    return out;
  }
}
