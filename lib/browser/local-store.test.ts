import { describe, expect, it } from "vitest";
import { NOTIFIED_MAX } from "@/lib/domain/alerts/incidents";
import { RECENT_MAX, parseIncidentIds, parseLastChannel, parseRecent } from "@/lib/browser/local-store";

const ID = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

describe("what is read back from localStorage", () => {
  it("keeps well-formed recent webhooks only, at most RECENT_MAX", () => {
    const stored = [
      { id: ID, endpoint: "https://a.example/hook", eventType: "Message", openedAt: 1 },
      { id: "not-an-id", endpoint: "x" },
      null,
      "text",
      { id: ID, endpoint: 42 },
    ];
    expect(parseRecent(stored)).toEqual([
      { id: ID, endpoint: "https://a.example/hook", eventType: "Message", openedAt: 1 },
      { id: ID, endpoint: "", eventType: "", openedAt: 0 },
    ]);
    expect(parseRecent({ not: "a list" })).toEqual([]);
    expect(parseRecent(Array.from({ length: 20 }, () => ({ id: ID })))).toHaveLength(RECENT_MAX);
  });

  it("reads the last channel, or nothing", () => {
    expect(parseLastChannel({ channelKind: "sms", from: ID })).toEqual({ channelKind: "sms", from: ID });
    expect(parseLastChannel({ channelKind: "sms" })).toBeNull();
    expect(parseLastChannel("sms")).toBeNull();
  });

  it("reads the incident entries as a list of strings, or nothing when none is stored", () => {
    expect(parseIncidentIds(["firing:a", 7, null, "resolved:a", "x".repeat(201)])).toEqual([
      "firing:a",
      "resolved:a",
    ]);
    expect(parseIncidentIds(null)).toBeNull();
    expect(parseIncidentIds({ firing: "a" })).toBeNull();
    expect(parseIncidentIds(Array.from({ length: NOTIFIED_MAX + 3 }, (_, n) => `firing:${n}`))).toHaveLength(
      NOTIFIED_MAX,
    );
  });
});
