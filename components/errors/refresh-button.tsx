"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";

/** "Try again" for an error the server rendered: renders the page again on the server. */
export function RefreshButton({ label = "Try again" }: { label?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      className="btn btn-primary"
      disabled={pending}
      onClick={() => startTransition(() => router.refresh())}
    >
      {pending ? "Trying again…" : label}
    </button>
  );
}
