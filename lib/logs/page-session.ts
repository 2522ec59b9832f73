import "server-only";
import { redirect } from "next/navigation";
import { getSession, type SessionData } from "@/lib/session/session";
import { redirectToSignIn } from "@/lib/session/redirect";

/**
 * For the signed-in pages: the session, or a redirect to /login that comes back to `here`
 * afterwards (`?next=`). A cookie that no longer opens ends the session with reason "expired".
 */
export async function requireSignedInPage(here: string): Promise<SessionData> {
  const state = await getSession();
  if (state.status === "signed_in") return state.data;
  if (state.status === "ended") redirectToSignIn("expired");
  redirect(`/login?next=${encodeURIComponent(here)}`);
}
