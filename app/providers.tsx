"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { inViewOrder } from "@/lib/domain/search-params";
import type { ReactNode } from "react";
import { getQueryClient } from "@/lib/browser/query-client";

/** The browser's one QueryClient (a fresh one per request while rendering on the server), and nuqs's URL state. */
export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter processUrlSearchParams={inViewOrder}>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
