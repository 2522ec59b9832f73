import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/http/app-error";
import { restoreEnv, stubEnv } from "@/lib/config/testing";
import { sessionCookie } from "@/lib/session/session";

// Server components read cookies through next/headers; here the jar is a plain map.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined) }),
}));

const { redirectToSignIn, requirePageApiKey, withSignInRedirect } = await import("@/lib/session/redirect");

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
    expect(await redirectedTo(() => redirectToSignIn("key_rejected"))).toBe("/api/session/end?reason=key_rejected");
  });

  it("requirePageApiKey: the key when signed in, /login without a cookie, end?reason=expired for a dead cookie", async () => {
    expect(await redirectedTo(() => requirePageApiKey())).toBe("/login");
    jar.set("hub_console", "not-a-seal");
    expect(await redirectedTo(() => requirePageApiKey())).toBe("/api/session/end?reason=expired");
    const { setCookie } = await sessionCookie("page-helper-key-123456");
    jar.set("hub_console", setCookie.split(";")[0]!.slice("hub_console=".length));
    expect(await requirePageApiKey()).toBe("page-helper-key-123456");
  });

  it("withSignInRedirect: a 401 from the hub ends the session; other errors pass through", async () => {
    expect(
      await redirectedTo(() =>
        withSignInRedirect(async () => {
          throw new AppError("unauthorized", "rejected");
        }),
      ),
    ).toBe("/api/session/end?reason=key_rejected");
    await expect(withSignInRedirect(async () => Promise.reject(new AppError("not_found", "nope")))).rejects.toMatchObject({ code: "not_found" });
    expect(await withSignInRedirect(async () => 42)).toBe(42);
  });
});
