import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findAcross } from "@/lib/server/watch/find-across";
import { addWatches, removeWatch } from "@/lib/server/watch/watches";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";

import { restoreEnv, stubEnv } from "@/tests/support/env";
import { WATCH_DATABASES, storeLogs, watchDatabases } from "@/tests/support/watch-databases";

/**
 * Find across every watched webhook of the session's applications, on both databases: by log id,
 * by message id (the newest delivery of a message), by a console link (its webhook only), and
 * never in a watch of an application the session does not hold.
 */

const databases = watchDatabases();

const KEY_A = "key-of-application-a-0123456789";
const KEY_B = "key-of-application-b-0123456789";
const KEY_C = "key-of-application-c-0123456789";
/** After every watch's first planned poll (added at the real time). */
const NOW = Date.now() + 60_000;

let n = 0;
function uuid(): string {
  n++;
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

const webhook = (id = uuid()) => ({
  id,
  endpoint: `https://example.test/${id}`,
  eventType: "Message",
  numberOfErrors: 0,
  active: true,
});

function log(webhookId: string, at: number, messageId = uuid()): WebhookLog {
  return {
    id: uuid(),
    webhookId,
    statusCode: 500,
    responseBody: `failure at ${at}`,
    status: "Failed",
    sendAt: new Date(at).toISOString(),
    createdDate: new Date(at + 10).toISOString(),
    messageId,
    webhook: { id: webhookId, endpoint: "https://example.test", eventType: "Message" },
  };
}

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("find across watched webhooks on %s", (kind) => {
  let ctx: StoreContext;
  const [appA, appB, appC] = [KEY_A, KEY_B, KEY_C].map(applicationId) as [string, string, string];

  beforeEach(async () => {
    ctx = await databases.fresh(kind);
  });

  const stored = (webhookId: string, logs: WebhookLog[]) => storeLogs(ctx, webhookId, logs, NOW);

  it("finds a delivery by log id or message id in any watched webhook of the session's applications", async () => {
    const [first, second, stranger] = [webhook(), webhook(), webhook()];
    await addWatches(ctx, appA, KEY_A, [{ webhook: first, name: "Acme" }]);
    await addWatches(ctx, appB, KEY_B, [{ webhook: second, name: "Globex" }]);
    await addWatches(ctx, appC, KEY_C, [{ webhook: stranger, name: "Not yours" }]);
    const shared = uuid();
    const older = log(second.id, NOW - 60_000, shared);
    const newer = log(second.id, NOW - 1_000, shared);
    const inFirst = log(first.id, NOW - 5_000);
    const inStranger = log(stranger.id, NOW - 2_000);
    await stored(first.id, [inFirst, log(first.id, NOW - 9_000)]);
    await stored(second.id, [newer, older]);
    await stored(stranger.id, [inStranger]);
    const session = [appA, appB];

    // By log id, in the second application's webhook, upper case as pasted.
    const byLog = await findAcross(ctx, session, { kind: "id", id: older.id.toUpperCase() });
    expect(byLog?.log.id).toBe(older.id);
    expect(byLog?.watch).toMatchObject({ webhookId: second.id, appId: appB, name: "Globex" });
    expect(byLog?.log.webhook).toEqual({ id: second.id, endpoint: second.endpoint, eventType: "Message" });

    // By message id: the newest delivery of that message.
    expect((await findAcross(ctx, session, { kind: "id", id: shared }))?.log.id).toBe(newer.id);
    expect((await findAcross(ctx, session, { kind: "id", id: inFirst.messageId! }))?.watch.appId).toBe(appA);

    // A console link opens the log on the webhook it names, and only there.
    const link = { kind: "log", id: inFirst.id, webhookId: first.id } as const;
    expect((await findAcross(ctx, session, link))?.log.id).toBe(inFirst.id);
    expect(await findAcross(ctx, session, { ...link, webhookId: second.id })).toBeNull();
    // A message id in a link is not a log id.
    expect(await findAcross(ctx, session, { ...link, id: inFirst.messageId! })).toBeNull();

    // Another application's watch is not searched, nor is anything without an application.
    expect(await findAcross(ctx, session, { kind: "id", id: inStranger.id })).toBeNull();
    expect((await findAcross(ctx, [appC], { kind: "id", id: inStranger.id }))?.watch.name).toBe("Not yours");
    expect(await findAcross(ctx, [], { kind: "id", id: older.id })).toBeNull();
    expect(await findAcross(ctx, session, { kind: "id", id: uuid() })).toBeNull();

    // Stopping a watch takes its deliveries out of Find.
    await removeWatch(ctx, session, second.id);
    expect(await findAcross(ctx, session, { kind: "id", id: older.id })).toBeNull();
  });

  it("answers a message delivered to several watched webhooks with its newest delivery among the session's", async () => {
    const [first, second, third] = [webhook(), webhook(), webhook()];
    await addWatches(ctx, appA, KEY_A, [{ webhook: first }]);
    await addWatches(ctx, appB, KEY_B, [{ webhook: second }]);
    await addWatches(ctx, appC, KEY_C, [{ webhook: third }]);
    const message = uuid();
    const inFirst = log(first.id, NOW - 30_000, message);
    const inSecond = log(second.id, NOW - 20_000, message);
    const inThird = log(third.id, NOW - 10_000, message);
    await stored(first.id, [log(first.id, NOW - 1_000), inFirst]);
    await stored(second.id, [inSecond]);
    await stored(third.id, [inThird]);

    // The newest delivery of all is in application C's webhook, outside the session.
    const found = await findAcross(ctx, [appA, appB], { kind: "id", id: message });
    expect(found?.log.id).toBe(inSecond.id);
    expect(found?.watch).toMatchObject({ webhookId: second.id, appId: appB });
    expect((await findAcross(ctx, [appA], { kind: "id", id: message }))?.log.id).toBe(inFirst.id);
    expect((await findAcross(ctx, [appC], { kind: "id", id: message }))?.log.id).toBe(inThird.id);
    await removeWatch(ctx, [appB], second.id);
    expect((await findAcross(ctx, [appA, appB], { kind: "id", id: message }))?.log.id).toBe(inFirst.id);
  });
});
