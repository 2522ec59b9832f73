"use client";

import { catchError } from "next/error";
import type { ReactNode } from "react";

/**
 * Around a part of the page loaded later (`lazyPart` or next/dynamic): when its code cannot be
 * loaded (the network failed, or the console was updated since the page was opened), `fallback`
 * shows in its place and the rest of the page keeps working.
 */
export const PartBoundary = catchError(({ fallback }: { fallback: ReactNode }) => fallback);

/** The usual fallback: says what could not be loaded, with Reload. */
export function PartUnavailable({ what }: { what: string }) {
  return (
    <div role="alert" className="space-y-2 text-sm">
      <p>
        The {what} could not be loaded: the network failed, or the console was updated since this page was
        opened. Reload the page to get it.
      </p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </div>
  );
}
