"use client";

import { useState } from "react";
import { apiRequest, beginSignOut, SESSION_END_PATH } from "@/lib/browser/api";

/** Ends the session (`DELETE /api/session`) and lands on /login with a full page load, dropping every cached answer. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    beginSignOut();
    const signedOut = await apiRequest("/api/session", { method: "DELETE" }).then(
      () => true,
      () => false,
    );
    // A full page load, not router.push: nothing cached for this key may survive. If the call
    // failed, /api/session/end clears the cookie on the way to /login.
    window.location.assign(signedOut ? "/login?reason=signed_out" : SESSION_END_PATH);
  }

  return (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={signOut}
      disabled={pending}
      aria-busy={pending}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
