import "server-only";
import { redirect } from "next/navigation";
import { getSession, type SessionData } from "@/lib/server/session/session";

/**
 * For server components (pages, layouts). They may read the session but cannot clear its cookie,
 * so when the session is over they send the browser to `GET /api/session/end`, which clears the
 * cookie and redirects (303) to `/login?reason=…`.
 */

export const SIGN_IN_REASONS = ["key_rejected", "expired"] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

/** Ends the session and lands on `/login?reason=<reason>`. Never returns. */
export function redirectToSignIn(reason: SignInReason): never {
  redirect(`/api/session/end?reason=${reason}`);
}

/**
 * For the signed-in pages: the session, or a redirect to /login that comes back to `here`
 * afterwards (`?next=`). A cookie that no longer opens (expired, rotated secret) ends the
 * session and lands on `/login?reason=expired`.
 */
export async function requireSignedInPage(here: string): Promise<SessionData> {
  const state = await getSession();
  if (state.status === "signed_in") return state.data;
  if (state.status === "ended") redirectToSignIn("expired");
  redirect(`/login?next=${encodeURIComponent(here)}`);
}
