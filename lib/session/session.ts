import "server-only";
import { randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import { getIronSession, type IronSession, type SessionOptions } from "iron-session";
import { AppError } from "@/lib/http/app-error";
import { serverConfig } from "@/lib/config/server-config";

/** What the sealed cookie holds. The key never leaves the server in any other form. */
export interface SessionData {
  apiKey?: string;
  /** Last 4 characters of the key at most, for "signed in as …4f2a". */
  keyHint?: string;
  signedInAt?: number;
}

const MIN_SECRET_LENGTH = 32;

const globalForSecret = globalThis as typeof globalThis & { __hubConsoleSessionSecret?: string };

/** The iron-session password, read lazily so `next build` works without it. */
function sessionPassword(): string {
  const secret = process.env.SESSION_SECRET;
  if (secret !== undefined && secret !== "") {
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new Error(
        `SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length}). ` +
          "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"",
      );
    }
    return secret;
  }
  if (!globalForSecret.__hubConsoleSessionSecret) {
    globalForSecret.__hubConsoleSessionSecret = randomBytes(32).toString("base64url");
    console.warn(
      "[console] SESSION_SECRET is not set: using a random secret for this process. Sessions end when it restarts, " +
        "and several instances will not accept each other's cookies. Set SESSION_SECRET (32+ characters) to keep them.",
    );
  }
  return globalForSecret.__hubConsoleSessionSecret;
}

export function sessionOptions(): SessionOptions {
  const production = process.env.NODE_ENV === "production";
  return {
    password: sessionPassword(),
    cookieName: "hub_console",
    ttl: serverConfig().sessionTtlSeconds,
    cookieOptions: {
      httpOnly: true,
      sameSite: "lax",
      secure: production,
      path: "/",
    },
  };
}

export async function getSession(): Promise<IronSession<SessionData>> {
  return getIronSession<SessionData>(await cookies(), sessionOptions());
}

/** The signed-in caller's API key, or a 401 AppError that says to sign in. */
export async function requireApiKey(): Promise<string> {
  const session = await getSession();
  if (!session.apiKey) {
    throw new AppError("unauthorized", "You are not signed in, or your session has expired. Sign in with your API key.");
  }
  return session.apiKey;
}

export function keyHint(apiKey: string): string {
  return apiKey.length > 8 ? apiKey.slice(-4) : "";
}
