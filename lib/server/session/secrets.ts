import "server-only";
import { randomBytes } from "node:crypto";
import { serverConfig } from "@/lib/server/config";

/**
 * The session secrets (SESSION_SECRET, then SESSION_SECRET_PREVIOUS), newest first: the session
 * seals with them, and the keyed hash of API keys (`key-hash.ts`) derives its own key from the
 * newest.
 */
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
