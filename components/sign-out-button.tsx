"use client";

import { useState } from "react";
import { buttonStyles } from "@/components/ui/styles";

/** Ends the session (`DELETE /api/session`) and lands on /login with a full page load, dropping every cached answer. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    let signedOut = false;
    try {
      signedOut = (await fetch("/api/session", { method: "DELETE", credentials: "same-origin" })).ok;
    } catch {
      signedOut = false;
    }
    // A full page load, not router.push: nothing cached for this key may survive. If the call
    // failed, /api/session/end clears the cookie on the way to /login.
    window.location.assign(signedOut ? "/login?reason=signed_out" : "/api/session/end");
  }

  return (
    <button type="button" className={buttonStyles.secondary} onClick={signOut} disabled={pending} aria-busy={pending}>
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
