import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import { cache } from "react";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { sessionRevocations } from "@/lib/server/shared-state/revocations";

/**
 * The session: the API key sealed (encrypted + signed, iron-session) in one httpOnly cookie, with
 * a random session id. The cookie is the whole session; the only server-side state is the list of
 * session ids signed out before they expired (`shared-state/revocations.ts`: in memory, and on
 * Redis when REDIS_URL is set), so any number of instances sharing SESSION_SECRET (and Redis)
 * can serve the same browser, and a sign-out holds on all of them.
 *
 * - Cookie `__Host-hub_console` (Secure, Path=/, no Domain) in production; `hub_console`
 *   (not Secure) in development, or in production with SESSION_COOKIE_INSECURE=1 (plain http
 *   on a trusted network; see SECURITY.md). Chrome keeps Secure cookies on http://127.0.0.1 and
 *   http://localhost, so the production build works on loopback without that switch.
 * - Rotation: SESSION_SECRET seals new cookies; SESSION_SECRET_PREVIOUS (comma-separated) still
 *   opens cookies sealed with older secrets. Each secret's iron password id is derived from the
 *   secret itself, so ids stay stable whatever order or set of old secrets is configured.
 *
 * Route handlers read the session from the Request (`readSession(request)`) and send cookie
 * changes as Set-Cookie strings (`sessionCookie()` / `clearedSessionCookie()`); server
 * components read it with `getSession()` (they cannot set cookies; see `redirect.ts`).
 */

/** What the sealed cookie holds. The key never leaves the server in any other form. */
export interface SessionData {
  apiKey: string;
  /** Last 4 characters of the key at most, for "signed in as …4f2a"; "" for short keys. */
  keyHint: string;
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

const sessionDataSchema = z.object({
  apiKey: z.string().min(1),
  keyHint: z.string(),
  signedInAt: z.number(),
  sessionId: z.string().min(16),
});

const globalForSecret = globalThis as typeof globalThis & { __hubConsoleSessionSecret?: string };

/** Secrets, newest first. Falls back to one random secret per process, with a warning. */
export function sessionSecrets(): string[] {
  const configured = serverConfig().sessionSecrets;
  if (configured.length > 0) return configured;
  if (!globalForSecret.__hubConsoleSessionSecret) {
    globalForSecret.__hubConsoleSessionSecret = randomBytes(32).toString("base64url");
    console.warn(
      "[console] SESSION_SECRET is not set: using a random secret for this process. Sessions end when it restarts, " +
        "and several instances will not accept each other's cookies. Set SESSION_SECRET (32+ characters) to keep them.",
    );
  }
  return [globalForSecret.__hubConsoleSessionSecret];
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

/**
 * Seals this process opened lately, by their exact text: unsealing costs about 0.5 ms of CPU
 * (a sixth of a proxied request), and a browser sends the same cookie with every request. An
 * entry is trusted until signedInAt + SESSION_TTL_SECONDS (never past the seal's own expiry); at
 * most OPENED_MAX are kept (oldest out). A tampered or other seal is a different text: a miss.
 * Sign-outs are checked on every request, cached or not.
 */
const OPENED_MAX = 1000;
const opened = new Map<string, { data: SessionData; until: number }>();
let openedWith: string | undefined;

async function unseal(seal: string): Promise<SessionData | undefined> {
  const secrets = sessionSecrets();
  const { sessionTtlSeconds } = serverConfig();
  const openedKey = `${sessionTtlSeconds}\n${secrets.join("\n")}`;
  if (openedWith !== openedKey) {
    // Other secrets or TTL (tests change them): what was opened before may not open now.
    opened.clear();
    openedWith = openedKey;
  }
  const known = opened.get(seal);
  if (known && known.until > Date.now()) return known.data;
  if (known) opened.delete(seal);
  try {
    const parsed = sessionDataSchema.safeParse(
      await unsealData<unknown>(seal, { password: passwordMap(secrets), ttl: sessionTtlSeconds }),
    );
    if (!parsed.success) return undefined;
    if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value as string);
    opened.set(seal, { data: parsed.data, until: parsed.data.signedInAt + sessionTtlSeconds * 1000 });
    return parsed.data;
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

/** The Set-Cookie header value that signs this key in. Sealed with the newest secret only. */
export async function sessionCookie(
  apiKey: string,
  now = Date.now(),
): Promise<{ setCookie: string; data: SessionData }> {
  const [newest] = sessionSecrets();
  const { sessionTtlSeconds } = serverConfig();
  const data: SessionData = {
    apiKey,
    keyHint: keyHint(apiKey),
    signedInAt: now,
    sessionId: randomBytes(16).toString("base64url"),
  };
  const seal = await sealData(data, { password: { [passwordId(newest!)]: newest! }, ttl: sessionTtlSeconds });
  const setCookie = `${sessionCookieName()}=${seal}; ${cookieAttributes(sessionTtlSeconds)}`;
  if (setCookie.length > 4096) {
    throw new AppError("bad_request", "This API key is too long to keep in a session cookie.", {
      fields: { apiKey: ["is too long"] },
    });
  }
  return { setCookie, data };
}

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

export function apiKeyOf(state: SessionState): string {
  if (state.status === "signed_in") return state.data.apiKey;
  throw new AppError(
    "unauthorized",
    state.status === "ended"
      ? "Your session has ended (it expired, or it was signed out). Sign in again with your API key."
      : "You are not signed in. Sign in with your API key.",
  );
}
