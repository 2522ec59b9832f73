import { describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { matchDeliveries, type FollowTarget } from "@/lib/domain/follow";

const webhook = {
  id: "00000000-0000-4000-8000-000000000001",
  endpoint: "https://example.test/hook",
  eventType: "Message",
};

function log(id: string, messageId: string | null, createdDate = "2025-11-21T16:00:00Z"): WebhookLog {
  return {
    id,
    webhookId: webhook.id,
    statusCode: 200,
    responseBody: "ok",
    status: "Success",
    sendAt: createdDate,
    createdDate,
    messageId,
    webhook,
  };
}

const M1 = "11111111-1111-4111-8111-111111111111";
const M2 = "22222222-2222-4222-8222-222222222222";

describe("matchDeliveries", () => {
  const logs = [log("a", M2), log("b", M1), log("c", null)];

  it("matches by messageId when the answer named one", () => {
    const target: FollowTarget = { messageId: M1, knownIds: new Set(["a", "b", "c"]), sentAt: 0 };
    expect(matchDeliveries(logs, target).map((l) => l.id)).toEqual(["b"]);
  });

  it("else takes the logs that were not there before sending", () => {
    const target: FollowTarget = { messageId: null, knownIds: new Set(["c"]), sentAt: 0 };
    expect(matchDeliveries(logs, target).map((l) => l.id)).toEqual(["a", "b"]);
  });

  it("else falls back to the logs created after sending", () => {
    const sentAt = Date.parse("2025-11-21T17:00:00Z");
    const recent = [log("new", null, "2025-11-21T17:00:01Z"), log("old", null, "2025-11-21T15:00:00Z")];
    const target: FollowTarget = { messageId: null, knownIds: null, sentAt };
    expect(matchDeliveries(recent, target).map((l) => l.id)).toEqual(["new"]);
  });
});
