"use client";

import { QueryClientContext, QueryClientProvider } from "@tanstack/react-query";
import { useContext, type ReactNode } from "react";
import { getQueryClient } from "@/lib/browser/query-client";

/**
 * The browser's one QueryClient (a fresh one per request while rendering on the server), given to
 * the parts that use TanStack Query: the pages made of them (Overview, Alerts, a webhook's
 * settings) and, on other pages, the parts loaded after the first load (the alerts banner, an
 * issue's actions, a delivery's comparison, the send form, the history tools). Not the console's
 * layout: Query's code stays out of the first load of a page that uses none at once. Inside a
 * provider already there (a page's, a test's), a part uses that one.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  return outer ? children : <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
