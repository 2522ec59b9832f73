/**
 * The support bundle's page: its tab names its webhook (its name, else its endpoint), as the
 * webhook's own page does, so that several open bundles can be told apart; and what it asks that
 * cannot be read is said on the page.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
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

const { default: BundlePage, generateMetadata } =
  await import("@/app/(console)/webhooks/[webhookId]/bundle/page");

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

describe("the support bundle's page", () => {
  async function pageOf(query: Record<string, string>): Promise<string> {
    const element = await BundlePage({
      params: Promise.resolve({ webhookId: WEBHOOK }),
      searchParams: Promise.resolve({ app: applicationId(KEY), ...query }),
    });
    return renderToStaticMarkup(createElement(() => element));
  }

  it("says a failure issue it cannot read, with the ways on, and does not send it again", async () => {
    const markup = await pageOf({ issue: "abc" });
    const text = markup.replace(/<[^>]+>/g, "").replaceAll("&#x27;", "'");
    expect(text).toContain("Failure issue: enter a UUID");
    expect(text).toContain("Open the bundle again from the issue's Hand over link on the webhook's page");
    expect(text).toContain("or prepare it without the issue");
    expect(markup).not.toMatch(/name="issue"/);
    expect(markup).not.toContain('value="abc"');
    expect(hub.upstream.requests).toHaveLength(0);
  });

  it("keeps a well-formed failure issue for the next Prepare bundle", async () => {
    const issue = "3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f";
    const markup = await pageOf({ issue, tz: "Mars/Olympus" });
    expect(markup).toContain(`<input type="hidden" name="issue" value="${issue}"/>`);
    expect(markup).toContain("Time zone: enter an IANA time zone name");
  });
});
