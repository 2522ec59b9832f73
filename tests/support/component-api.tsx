import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { vi } from "vitest";
import { POLL_HEADER } from "@/lib/domain/query-keys";

/** A request a component made of the console's API, as the fake saw it. */
export interface ApiCall {
  method: string;
  /** Path and query, e.g. `/api/alerts/destinations`. */
  path: string;
  body: unknown;
  /** Sent as a poll (POLL_HEADER); left out otherwise. */
  poll?: true;
}

/** The fake's answer: a status and a JSON body (an error answer is `{ error: { code, message, fields } }`). */
export interface ApiAnswer {
  status: number;
  body?: unknown;
}

/**
 * Stands in for the console's API in a component test: `fetch` answers with what `answer` gives
 * for each call, and every call is recorded. vitest puts the real `fetch` back after each test
 * (`unstubGlobals`).
 */
export function fakeApi(answer: (call: ApiCall) => ApiAnswer | Promise<ApiAnswer>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://console.test");
      const call: ApiCall = {
        method: init.method ?? "GET",
        path: `${url.pathname}${url.search}`,
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
        ...(new Headers(init.headers).get(POLL_HEADER) === "1" ? { poll: true as const } : {}),
      };
      calls.push(call);
      const { status, body } = await answer(call);
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  return calls;
}

/** The console's error answer with field errors, as AppError sends it. */
export function fieldRefusal(fields: Record<string, string>): ApiAnswer {
  const [first] = Object.values(fields);
  return {
    status: 400,
    body: {
      error: {
        code: "bad_request",
        message: first,
        fields: Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, [message]])),
      },
    },
  };
}

/** Renders `ui` under a query client of its own, which does not retry (a refusal shows at once). */
export function renderWithQueries(ui: ReactElement) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}
