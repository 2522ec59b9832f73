/**
 * TEST ONLY. The Cookie header of a browser signed in with `apiKey`, sealed exactly as sign-in
 * seals it but without asking a hub: for route tests about other things than signing in, so the
 * key check is not among the upstream calls they count or script.
 */
import { sessionCookie } from "@/lib/server/session/session";

export async function signedInCookie(apiKey: string): Promise<string> {
  return (await sessionCookie(apiKey)).setCookie.split(";")[0]!;
}
