import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { sessionCookie } from "@/lib/server/session/session";

// Server components read cookies through next/headers; here the jar is a plain map.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
  }),
}));

const { redirectToSignIn, requireSignedInPage } = await import("@/lib/server/session/redirect");

/** Where a `redirect()` from next/navigation was going (it throws a NEXT_REDIRECT error). */
async function redirectedTo(work: () => unknown): Promise<string> {
  try {
    await work();
  } catch (error) {
    const digest = (error as { digest?: string }).digest ?? "";
    if (digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2]!;
    throw error;
  }
  throw new Error("did not redirect");
}

beforeEach(() => {
  stubEnv({ SESSION_SECRET: "redirect-test-secret-0123456789abcdefgh" });
  jar.clear();
});
afterEach(() => {
  restoreEnv();
});

describe("page helpers", () => {
  it("redirectToSignIn goes through /api/session/end, which clears the cookie", async () => {
    expect(await redirectedTo(() => redirectToSignIn("key_rejected"))).toBe(
      "/api/session/end?reason=key_rejected",
    );
  });

  it("requireSignedInPage: the session when signed in, /login?next= without a cookie, end?reason=expired for a dead cookie", async () => {
    const here = "/webhooks/0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d?status=Failed";
    expect(await redirectedTo(() => requireSignedInPage(here))).toBe(
      `/login?next=${encodeURIComponent(here)}`,
    );
    jar.set("hub_console", "not-a-seal");
    expect(await redirectedTo(() => requireSignedInPage(here))).toBe("/api/session/end?reason=expired");
    const { setCookie } = await sessionCookie("page-helper-key-123456");
    jar.set("hub_console", setCookie.split(";")[0]!.slice("hub_console=".length));
    expect((await requireSignedInPage(here)).applications[0]!.apiKey).toBe("page-helper-key-123456");
  });
});
