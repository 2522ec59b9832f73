import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { APPLICATIONS_MAX, FIRST_APPLICATION_NAME, type ApplicationSummary } from "@/lib/domain/applications";
import { cookies } from "next/headers";
import { cache } from "react";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { applicationId } from "@/lib/server/session/key-hash";
import { sessionSecrets } from "@/lib/server/session/secrets";
import { sessionRevocations } from "@/lib/server/shared-state/revocations";

/**
 * The session: the person's applications (a name and an API key each, at most APPLICATIONS_MAX)
 * sealed (encrypted + signed, iron-session) in one httpOnly cookie, with a random session id.
 * The cookie is the whole session; the only server-side state is the list of
 * session ids signed out before they expired (`shared-state/revocations.ts`: in memory, and on
 * Redis when REDIS_URL is set, else in the console's database), so any number of instances
 * sharing SESSION_SECRET (and Redis or the database) can serve the same browser, and a sign-out
 * holds on all of them and across restarts.
 *
 * - Cookie `__Host-hub_console` (Secure, Path=/, no Domain) in production; `hub_console`
 *   (not Secure) in development, or in production with SESSION_COOKIE_INSECURE=1 (plain http
 *   on a trusted network; see SECURITY.md). Chrome keeps Secure cookies on http://127.0.0.1 and
 *   http://localhost, so the production build works on loopback without that switch.
 * - Rotation: SESSION_SECRET seals new cookies; SESSION_SECRET_PREVIOUS (comma-separated) still
 *   opens cookies sealed with older secrets. Each secret's iron password id is derived from the
 *   secret itself, so ids stay stable whatever order or set of old secrets is configured.
 *
 * - A cookie sealed before several applications (one key) opens as one application named
 *   FIRST_APPLICATION_NAME, so nobody is signed out by the upgrade.
 *
 * Route handlers read the session from the Request (`readSession(request)`) and send cookie
 * changes as Set-Cookie strings (`sessionCookie()` / `clearedSessionCookie()`); server
 * components read it with `getSession()` (they cannot set cookies; see `redirect.ts`).
 */

/** One application of the session: a name the person chose and its API key. */
export interface Application extends ApplicationSummary {
  apiKey: string;
}

/** What the sealed cookie holds, opened. The keys never leave the server in any other form. */
export interface SessionData {
  /** At most APPLICATIONS_MAX, in the order they were added; never empty. */
  applications: Application[];
  /** The id of the application pages without `?app=` show (the one the header names there). */
  current: string;
  signedInAt: number;
  /** Random; what a sign-out records as revoked. */
  sessionId: string;
}

/**
 * - `signed_in`: a valid session;
 * - `none`: no session cookie;
 * - `ended`: a cookie that no longer opens (expired, signed out, tampered with, or sealed with a
 *   secret that was rotated out): the person has to sign in again.
 */
export type SessionState =
  { status: "signed_in"; data: SessionData } | { status: "none" } | { status: "ended" };

/**
 * The sealed form, kept small for the 4 KB cookie: names and keys only (ids and hints are
 * derived when opened), the current application by position.
 */
const sealedSchema = z.object({
  apps: z
    .array(
      z.object({ name: z.string().min(1), apiKey: z.string().min(1), rejected: z.literal(1).optional() }),
    )
    .min(1)
    .max(APPLICATIONS_MAX),
  current: z.number().int().min(0),
  signedInAt: z.number(),
  sessionId: z.string().min(16),
});
type Sealed = z.infer<typeof sealedSchema>;

/** A cookie sealed before several applications: one key. Opened as one application named FIRST_APPLICATION_NAME. */
const singleKeySchema = z.object({
  apiKey: z.string().min(1),
  signedInAt: z.number(),
  sessionId: z.string().min(16),
});

function openSealed(value: unknown): SessionData | undefined {
  const single = singleKeySchema.safeParse(value);
  const parsed = single.success
    ? {
        success: true as const,
        data: {
          apps: [{ name: FIRST_APPLICATION_NAME, apiKey: single.data.apiKey }],
          current: 0,
          signedInAt: single.data.signedInAt,
          sessionId: single.data.sessionId,
        } satisfies Sealed,
      }
    : sealedSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { apps, current, signedInAt, sessionId } = parsed.data;
  const applications = apps.map(({ name, apiKey, rejected }) => ({
    id: applicationId(apiKey),
    name,
    apiKey,
    keyHint: keyHint(apiKey),
    rejected: rejected === 1,
  }));
  return { applications, current: (applications[current] ?? applications[0]!).id, signedInAt, sessionId };
}

function toSealed(data: SessionData): Sealed {
  return {
    apps: data.applications.map(({ name, apiKey, rejected }) => ({
      name,
      apiKey,
      ...(rejected ? { rejected: 1 as const } : {}),
    })),
    current: Math.max(
      0,
      data.applications.findIndex((app) => app.id === data.current),
    ),
    signedInAt: data.signedInAt,
    sessionId: data.sessionId,
  };
}

/** A stable numeric iron password id for a secret (iron-session wants numeric ids). */
function passwordId(secret: string): string {
  return String(createHash("sha256").update(secret).digest().readUInt32BE(0) + 1);
}

function passwordMap(secrets: string[]): Record<string, string> {
  return Object.fromEntries(secrets.map((secret) => [passwordId(secret), secret]));
}

export function sessionCookieName(): string {
  return serverConfig().cookieSecure ? "__Host-hub_console" : "hub_console";
}

/** Opens a sealed cookie value. Any failure (expired, signed out, tampered, unknown secret) is `ended`, never an exception. */
export async function openSeal(seal: string | undefined | null): Promise<SessionState> {
  if (!seal) return { status: "none" };
  const data = await unseal(seal);
  if (!data || (await sessionRevocations().isRevoked(data.sessionId))) return { status: "ended" };
  return { status: "signed_in", data };
}

/** The session data a sealed cookie holds, or undefined when it does not open (any reason). */
async function unseal(seal: string): Promise<SessionData | undefined> {
  try {
    return openSealed(
      await unsealData<unknown>(seal, {
        password: passwordMap(sessionSecrets()),
        ttl: serverConfig().sessionTtlSeconds,
      }),
    );
  } catch {
    return undefined;
  }
}

/**
 * Signs this session out everywhere: its id is refused (as `ended`) until the seal would have
 * expired anyway (its TTL plus iron's 60 s of clock skew).
 */
export async function revokeSession(data: SessionData): Promise<void> {
  const until = data.signedInAt + (serverConfig().sessionTtlSeconds + 60) * 1000;
  await sessionRevocations().revoke(data.sessionId, until);
}

/** The value of one cookie in a Cookie header (the first if repeated), or undefined. */
export function cookieValue(cookieHeader: string | null, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session of a route handler's request. */
export async function readSession(request: Request): Promise<SessionState> {
  return openSeal(cookieValue(request.headers.get("cookie"), sessionCookieName()));
}

/** True when the request carries the session cookie at all (valid or not). */
export function hasSessionCookie(request: Request): boolean {
  return cookieValue(request.headers.get("cookie"), sessionCookieName()) !== undefined;
}

function cookieAttributes(maxAgeSeconds: number): string {
  const { cookieSecure } = serverConfig();
  // Path=/ and no Domain: required by the __Host- prefix, and right for the plain name too.
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${cookieSecure ? "; Secure" : ""}`;
}

/** The Set-Cookie header value of a new session holding one application: a sign-in. */
export async function sessionCookie(
  apiKey: string,
  now = Date.now(),
): Promise<{ setCookie: string; data: SessionData }> {
  const id = applicationId(apiKey);
  const data: SessionData = {
    applications: [{ id, name: FIRST_APPLICATION_NAME, apiKey, keyHint: keyHint(apiKey), rejected: false }],
    current: id,
    signedInAt: now,
    sessionId: randomBytes(16).toString("base64url"),
  };
  return { setCookie: await sealedCookie(data, now), data };
}

/**
 * The Set-Cookie header value that keeps `data` (applications added, switched, removed…): same
 * session id, and it ends when the sign-in would have. Sealed with the newest secret only. A
 * cookie over the browsers' 4 KB limit would be dropped: that is refused, and nothing changes.
 */
export async function sealedCookie(data: SessionData, now = Date.now()): Promise<string> {
  const [newest] = sessionSecrets();
  const { sessionTtlSeconds } = serverConfig();
  const left = Math.max(1, Math.floor((data.signedInAt + sessionTtlSeconds * 1000 - now) / 1000));
  const seal = await sealData(toSealed(data), { password: { [passwordId(newest!)]: newest! }, ttl: left });
  const setCookie = `${sessionCookieName()}=${seal}; ${cookieAttributes(left)}`;
  if (setCookie.length > SESSION_COOKIE_MAX) {
    const message =
      data.applications.length > 1
        ? "API key: the session has no room for this key; the keys already added fill the session cookie " +
          "(browsers keep at most 4 KB). Remove an application, then try again."
        : "API key: this key is too long to keep in a session cookie; check that you pasted only the key.";
    throw new AppError("bad_request", message, { fields: { apiKey: [message] } });
  }
  return setCookie;
}

/** Browsers keep cookies of at most 4096 bytes (name, value and attributes). */
export const SESSION_COOKIE_MAX = 4096;

/** The Set-Cookie header value that removes the session cookie (same name, path and flags, Max-Age=0). */
export function clearedSessionCookie(): string {
  return `${sessionCookieName()}=; ${cookieAttributes(0)}`;
}

/** Last 4 characters of the key, and only when the key is long enough that 4 reveal little. */
export function keyHint(apiKey: string): string {
  return apiKey.length > 8 ? apiKey.slice(-4) : "";
}

/**
 * Server components: the session as the browser's cookie has it (read-only; pages cannot set
 * cookies). Memoised per render (React `cache`), so the layout and the page unseal it once;
 * outside a render it simply calls through.
 */
export const getSession = cache(async (): Promise<SessionState> => {
  const store = await cookies();
  return openSeal(store.get(sessionCookieName())?.value);
});

function notSignedIn(state: SessionState): AppError {
  return new AppError(
    "unauthorized",
    state.status === "ended"
      ? "Your session has ended (it expired, or it was signed out). Sign in again with your API key."
      : "You are not signed in. Sign in with your API key.",
  );
}

/** The data of a signed-in session, or the 401 AppError that says why there is none. */
export function sessionDataOf(state: SessionState): SessionData {
  if (state.status !== "signed_in") throw notSignedIn(state);
  return state.data;
}

/**
 * The application a request or page is for: the one `appId` names (a `?app=`), or the current one
 * when none is named. Not signed in: 401. An id this session does not hold: 404, and no hub call
 * is made (it may be another person's application, or a key since replaced).
 */
export function applicationOf(state: SessionState, appId?: string | null): Application {
  const { applications, current } = sessionDataOf(state);
  const wanted = appId ?? current;
  const found = applications.find((app) => app.id === wanted);
  if (found) return found;
  throw new AppError(
    "not_found",
    "This link is for an application that is not in your session. Add its API key on the Applications page, then open the link again.",
  );
}

/** The current application of a session (the one pages without `?app=` show). */
export function currentApplication(data: SessionData): Application {
  return data.applications.find((app) => app.id === data.current) ?? data.applications[0]!;
}
