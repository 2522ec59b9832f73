/**
 * The applications of one session, as far as any bundle may know them: the limits, and the
 * identifier URLs carry (`?app=`), which the server derives from the key with a keyed hash
 * (`lib/server/session/key-hash.ts`). Never the key.
 */

/** How many applications (API keys) one session may hold; the sealed cookie stays under 4 KB with this many. */
export const APPLICATIONS_MAX = 10;
/** Longest application name, in characters. */
export const APPLICATION_NAME_MAX = 40;
/** The name of the application a sign-in opens (renamed on the Applications page). */
export const FIRST_APPLICATION_NAME = "Default";

/** What one application looks like outside the server: no key, its last 4 characters at most. */
export interface ApplicationSummary {
  id: string;
  name: string;
  keyHint: string;
  /** The hub answered 401 to this key: it was rotated or revoked. */
  rejected: boolean;
}

const APP_ID = /^[0-9a-f]{16}$/;

/** An application id as a URL gives it: 16 lowercase hex characters, or null. */
export function parseApplicationId(raw: unknown): string | null {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && APP_ID.test(value) ? value : null;
}
