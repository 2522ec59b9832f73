/**
 * The support bundle's tab names its webhook (its name, else its endpoint), as the webhook's own
 * page does, so that several open bundles can be told apart.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { WEBHOOK, oneKeyHub } from "@/tests/support/one-key-hub";
import { sessionCookie } from "@/lib/server/session/session";
import { applicationId } from "@/lib/server/session/key-hash";

// Server components read cookies through next/headers; here the jar is a plain map.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
  }),
}));

const { generateMetadata } = await import("@/app/(console)/webhooks/[webhookId]/bundle/page");

const KEY = "bundle-title-key-7f3a9c2e5b1d";
const hub = oneKeyHub(KEY);

async function titleOf(webhookId: string, app: string): Promise<unknown> {
  const metadata = await generateMetadata({
    params: Promise.resolve({ webhookId }),
    searchParams: Promise.resolve({ app }),
  });
  return metadata.title;
}

beforeEach(async () => {
  jar.clear();
  const { setCookie } = await sessionCookie(KEY);
  jar.set("hub_console", setCookie.split(";")[0]!.slice("hub_console=".length));
});

describe("the support bundle's title", () => {
  it("names the webhook by its endpoint when the API gives it no name", async () => {
    expect(await titleOf(WEBHOOK, applicationId(KEY))).toEqual({
      absolute: "Support bundle · https://example.test/hook",
    });
  });

  it("names the webhook by its name when the API gives one", async () => {
    const answer = hub.upstream.handle;
    hub.upstream.handle = (req, res, recorded) =>
      req.url?.endsWith(WEBHOOK)
        ? sendJson(res, 200, { ...fakeWebhook(WEBHOOK), name: "Orders (prod)" })
        : answer(req, res, recorded);
    expect(await titleOf(WEBHOOK, applicationId(KEY))).toEqual({
      absolute: "Support bundle · Orders (prod)",
    });
  });

  it("stays plain for an application the session does not hold", async () => {
    expect(await titleOf(WEBHOOK, "0123456789abcdef")).toBe("Support bundle");
    expect(hub.upstream.requests).toHaveLength(0);
  });
});
