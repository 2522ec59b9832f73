"use client";

import { useState, type ReactNode } from "react";

/** A field that looks like a credential stays hidden until asked for. */
export function HiddenValue({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {shown ? (
        children
      ) : (
        <span>
          <span aria-hidden="true">••••••••</span>
          <span className="sr-only">hidden</span>
        </span>
      )}
      <button type="button" className="btn btn-small" onClick={() => setShown(!shown)} aria-pressed={shown}>
        {shown ? "Hide" : "Show"}
      </button>
    </span>
  );
}
