import { QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getQueryClient } from "@/lib/browser/query-client";
import { QueryProvider } from "@/components/ui/query-provider";

function clientSeen(wrap: (part: React.ReactElement) => React.ReactElement): QueryClient {
  let seen: QueryClient | null = null;
  function Part() {
    seen = useQueryClient();
    return null;
  }
  render(wrap(<QueryProvider>{<Part />}</QueryProvider>));
  return seen!;
}

describe("QueryProvider", () => {
  it("gives a part loaded on its own the browser's one client", () => {
    expect(clientSeen((part) => part)).toBe(getQueryClient());
  });

  it("leaves a part inside a page's (or a test's) provider with that provider's client", () => {
    const page = new QueryClient();
    expect(clientSeen((part) => <QueryClientProvider client={page}>{part}</QueryClientProvider>)).toBe(page);
  });
});
