"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Notice } from "@/components/ui/notice";

/** Faults nobody planned for. Known hub failures are shown by the pages themselves, with their reason. */
export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest =
    error instanceof Error && "digest" in error
      ? String((error as Error & { digest?: string }).digest ?? "")
      : "";

  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <h1 className="text-xl font-semibold">This page could not be shown</h1>
      <Notice tone="error" title="Something went wrong in the console">
        <p>
          The console failed while preparing this page. It may be a passing problem with the Messaging Hub or
          the network: try again. If it keeps happening, report it
          {digest ? ` with the reference ${digest}` : ""}.
        </p>
        <div className="flex flex-wrap items-center gap-3 pt-1">
          <button type="button" className="btn btn-primary" onClick={() => retry()}>
            Try again
          </button>
          <Link href="/webhooks" className="btn-link">
            Back to webhooks
          </Link>
        </div>
      </Notice>
    </div>
  );
}
