/**
 * TEST ONLY (vitest). Route handlers called with `new Request(...)` as a browser on the
 * console's own origin would send them, and a session signed in through the real route.
 */
import { signedInCookie } from "@/tests/support/signed-in";

export const HOST = "console.test:3000";
export const ORIGIN = `http://${HOST}`;

/** The Cookie header a browser signed in with `apiKey` sends back (the sign-in itself: app/api/session/). */
export async function signInThroughRoute(apiKey: string): Promise<string> {
  return signedInCookie(apiKey);
}
