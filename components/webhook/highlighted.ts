"use client";

import { createContext, useContext } from "react";

/** The deliveries of the test message being followed on a webhook's page: their rows are highlighted. */
export const Highlighted = createContext<ReadonlySet<string>>(new Set());

/** Whether a row is one of the followed test message's deliveries. */
export function useHighlighted(logId: string): boolean {
  return useContext(Highlighted).has(logId);
}
