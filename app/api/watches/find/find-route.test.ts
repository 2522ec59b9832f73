/**
 * `GET /api/watches/find`: a delivery found in any watched webhook of any application of the
 * session, from the store alone (the hub is not asked), opened under its own application; bad
 * input and misses answered with messages naming the field; another session's watches unseen.
 */
import { addWatches, listWatches, removeWatch } from "@/lib/server/watch/watches";
import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { FindAcrossAnswer } from "@/lib/domain/watch/find-across";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import { applicationId } from "@/lib/server/session/key-hash";
import { sharedStoreContext } from "@/lib/server/store/context";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { errorOf, request, signedInCookie, twoApplicationsCookie } from "@/tests/support/route-requests";
import { storeLogs } from "@/tests/support/watch-databases";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as findRoute from "@/app/api/watches/find/route";

const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
const SECOND = "second-key-0a1b2c3d4e5f60718293";
const STRANGER = "stranger-key-4d5e6f708192a3b4c5d6";
const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";
const C = "2d9a7c6e-0b2a-4c7d-9e3f-4a5b6c7d8e9f";
const LOG_B = "3e0b8d7f-1c3b-4d8e-8f4a-5b6c7d8e9f0a";
const MESSAGE_B = "4f1c9e8a-2d4c-4e9f-9a5b-6c7d8e9f0a1b";
const LOG_C = "5a2d0f9b-3e5d-4f0a-8b6c-7d8e9f0a1b2c";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "800",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});

function log(webhookId: string, id: string, messageId: string | null, at: number): WebhookLog {
  return {
    id,
    webhookId,
    statusCode: 500,
    responseBody: "database connection lost",
    status: "Failed",
    sendAt: new Date(at).toISOString(),
    createdDate: new Date(at + 5).toISOString(),
    messageId,
    webhook: { id: webhookId, endpoint: "https://example.test", eventType: "Message" },
  };
}

/** Watches `webhookId` under the key's application and stores its logs as the watcher does. */
async function watched(apiKey: string, webhookId: string, name: string, logs: WebhookLog[]) {
  const store = await sharedStoreContext();
  await addWatches(store, applicationId(apiKey), apiKey, [{ webhook: fakeWebhook(webhookId), name }]);
  await storeLogs(await sharedStoreContext(), webhookId, logs);
}

const find = (q: string, cookie: string) =>
  findRoute.GET(request("GET", `/api/watches/find?${new URLSearchParams({ q })}`, { cookie }));

beforeEach(async () => {
  forgetSharedReadsForTests();
  const store = await sharedStoreContext();
  const appIds = [FIRST, SECOND, STRANGER].map(applicationId);
  for (const watch of await listWatches(store, appIds)) await removeWatch(store, appIds, watch.webhookId);
});

describe("find across watched webhooks", () => {
  it("finds a delivery of another application's webhook, from the store, and opens it under that application", async () => {
    const now = Date.now();
    await watched(FIRST, A, "Acme", [log(A, "6b3e1a0c-4f6e-4a1b-9c7d-8e9f0a1b2c3d", null, now - 1000)]);
    await watched(SECOND, B, "Globex", [log(B, LOG_B, MESSAGE_B, now - 2000)]);
    await watched(STRANGER, C, "Not yours", [log(C, LOG_C, null, now - 3000)]);
    const cookie = await twoApplicationsCookie(FIRST, SECOND);
    const before = fake.current.requests.length;

    for (const q of [
      MESSAGE_B.toUpperCase(),
      ` ${LOG_B} `,
      `http://console.test/webhooks/${B}?app=x&log=${LOG_B}`,
    ]) {
      const response = await find(q, cookie);
      expect(response.status, q).toBe(200);
      const answer = (await response.json()) as FindAcrossAnswer;
      expect(answer.log).toMatchObject({ id: LOG_B, messageId: MESSAGE_B, statusCode: 500 });
      expect(answer.watch).toMatchObject({ webhookId: B, appId: applicationId(SECOND), name: "Globex" });
      expect(answer.href).toBe(`/webhooks/${B}?app=${applicationId(SECOND)}&log=${LOG_B}`);
    }
    // No hub call: the store answers.
    expect(fake.current.requests.length).toBe(before);
    // The answer never carries a key.
    const text = await (await find(LOG_B, cookie)).text();
    for (const key of [FIRST, SECOND, STRANGER]) expect(text).not.toContain(key);

    // A session without SECOND does not see its webhook's deliveries.
    const missed = await errorOf(await find(LOG_B, await signedInCookie(FIRST)));
    expect(missed.code).toBe("not_found");
    expect(missed.message).toMatch(
      /^Find in watched webhooks: no watched webhook has a delivery with that ID/,
    );
    expect(missed.message).toContain("1 watched webhook in 1 application");
    // Nor anyone another application's.
    expect((await errorOf(await find(LOG_C, cookie))).message).toContain(
      "2 watched webhooks in 2 applications",
    );
  });

  it("says where it looked when nothing is watched, or the link's webhook is not", async () => {
    const cookie = await twoApplicationsCookie(FIRST, SECOND);
    const nothing = await find(LOG_B, cookie);
    expect(nothing.status).toBe(404);
    expect((await errorOf(nothing)).message).toMatch(/^Find in watched webhooks: nothing is watched/);

    await watched(FIRST, A, "Acme", [log(A, "6b3e1a0c-4f6e-4a1b-9c7d-8e9f0a1b2c3d", null, Date.now())]);
    const unwatched = await errorOf(await find(`/webhooks/${C}?log=${LOG_C}`, cookie));
    expect(unwatched.message).toContain(`the link's webhook (${C}) is not watched`);
  });

  it("refuses what is not an ID or a delivery's link, naming the field, before reading anything", async () => {
    const cookie = await twoApplicationsCookie(FIRST, SECOND);
    for (const [q, expected] of [
      ["", /^Find in watched webhooks: paste a message ID/],
      ["hello", /^Find in watched webhooks: this is not an ID or a console link/],
      [`/webhooks/${B}`, /^Find in watched webhooks: this links to a webhook, not to one delivery/],
      ["x".repeat(2049), /^Find in watched webhooks: shorten it to 2,048 characters/],
    ] as const) {
      const response = await find(q, cookie);
      expect(response.status, q).toBe(400);
      const error = await errorOf(response);
      expect(error.fields?.q?.[0], q).toMatch(expected);
    }
    const unsigned = await findRoute.GET(request("GET", `/api/watches/find?q=${LOG_B}`));
    expect(unsigned.status).toBe(401);
  });
});
