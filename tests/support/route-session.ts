/**
 * TEST ONLY (vitest). Route handlers called with `new Request(...)` as a browser on the
 * console's own origin would send them, and a session signed in through the real route.
 */
import { expect } from "vitest";
import * as sessionRoute from "@/app/api/session/route";

export const HOST = "console.test:3000";
export const ORIGIN = `http://${HOST}`;

/** Signs in with `apiKey` through POST /api/session; returns the Cookie header a browser would send back. */
export async function signInThroughRoute(apiKey: string): Promise<string> {
  const response = await sessionRoute.POST(
    new Request(`${ORIGIN}/api/session`, {
      method: "POST",
      headers: { host: HOST, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ apiKey }),
    }),
  );
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}
