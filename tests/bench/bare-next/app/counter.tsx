"use client";

import { useState } from "react";

/** The page's one client component: what makes the browser load React and hydrate. */
export function Counter() {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks((n) => n + 1)}>
      Clicked {clicks} times
    </button>
  );
}
