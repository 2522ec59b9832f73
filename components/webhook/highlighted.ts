"use client";

import { createContext, useContext } from "react";

/** The deliveries of the test message being followed on a webhook's page: their rows are highlighted. */
export const Highlighted = createContext<ReadonlySet<string>>(new Set());

/** The IDs of the followed test message's deliveries. */
export function useHighlighted(): ReadonlySet<string> {
  return useContext(Highlighted);
}
