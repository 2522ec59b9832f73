import "server-only";
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/http/app-error";
import { getSession } from "@/lib/session/session";

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
 * The signed-in caller's API key for a page. No session cookie: redirects to `/login`; a cookie
 * that no longer opens (expired, rotated secret): ends it and redirects to `/login?reason=expired`.
 */
export async function requirePageApiKey(): Promise<string> {
  const state = await getSession();
  if (state.status === "signed_in") return state.data.apiKey;
  if (state.status === "ended") redirectToSignIn("expired");
  redirect("/login");
}

/**
 * Runs a hub call for a page; when the hub rejects the key (AppError `unauthorized`), ends the
 * session and redirects to `/login?reason=key_rejected`. Other errors are rethrown as they are.
 *
 * @example const webhook = await withSignInRedirect(() => getWebhook({ apiKey }, id));
 */
export async function withSignInRedirect<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isAppError(error) && error.code === "unauthorized") redirectToSignIn("key_rejected");
    throw error;
  }
}
