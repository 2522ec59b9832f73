/**
 * GET /login?next=…: signed in, the page redirects at once; signed out, the form goes there after
 * signing in. Either way only to a path of this console, whatever `next` tries (see
 * lib/domain/safe-next.test.ts for the rule itself).
 */
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { OPEN_REDIRECT_VARIANTS } from "@/tests/support/open-redirect-variants";
import { sessionCookie } from "@/lib/server/session/session";
import { LoginForm } from "@/components/login/login-form";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
  }),
}));

const { default: LoginPage } = await import("@/app/login/page");

const ORIGIN = "https://console.example";

/** The Location the page's redirect sends (Next's redirect() throws with it in its digest). */
async function redirectOf(next: string): Promise<string> {
  try {
    await LoginPage({ searchParams: Promise.resolve({ next }) });
  } catch (error) {
    const digest = (error as { digest?: string }).digest ?? "";
    if (digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2]!;
    throw error;
  }
  throw new Error("did not redirect");
}

/** The `next` the page hands the sign-in form, found in the element tree it renders. */
async function formNextOf(next: string): Promise<string> {
  const tree = await LoginPage({ searchParams: Promise.resolve({ next }) });
  const found: string[] = [];
  const walk = (node: ReactNode): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isValidElement(node)) return;
    const element = node as ReactElement<{ next?: string; children?: ReactNode }>;
    if (element.type === LoginForm) found.push(element.props.next!);
    walk(element.props.children);
  };
  walk(tree);
  expect(found).toHaveLength(1);
  return found[0]!;
}

function expectConsolePath(location: string): void {
  expect(location).toMatch(/^\/(?![/\\])/);
  expect(location).not.toMatch(/[\\\s]/);
  const url = new URL(location, `${ORIGIN}/login`);
  expect(url.origin).toBe(ORIGIN);
  expect(url.href).not.toContain("evil.example");
}

beforeEach(() => {
  stubEnv({ SESSION_SECRET: "login-page-test-secret-0123456789abcdef" });
  jar.clear();
});
afterEach(restoreEnv);

describe("GET /login?next=", () => {
  it.each(OPEN_REDIRECT_VARIANTS)("signed in, redirects %j to a path of the console", async (next) => {
    const { setCookie } = await sessionCookie("login-page-key-0123456789");
    jar.set("hub_console", setCookie.split(";")[0]!.slice("hub_console=".length));
    expectConsolePath(await redirectOf(next));
  });

  it.each(OPEN_REDIRECT_VARIANTS)(
    "signed out, the form goes on to a path of the console for %j",
    async (next) => {
      expectConsolePath(await formNextOf(next));
    },
  );

  it("keeps a path of the console", async () => {
    expect(await formNextOf("/webhooks/abc?status=Failed")).toBe("/webhooks/abc?status=Failed");
  });
});
