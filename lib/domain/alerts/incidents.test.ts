import { describe, expect, it } from "vitest";
import {
  NOTIFIED_MAX,
  firingText,
  incidentNotification,
  newestFiring,
  notificationsDue,
  type IncidentView,
} from "@/lib/domain/alerts/incidents";

function incident(id: string, openedAt: string, state: IncidentView["state"] = "firing"): IncidentView {
  return {
    id,
    appId: "0123456789abcdef",
    applicationName: "Production",
    webhookId: "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    name: "Acme orders",
    endpoint: "https://acme.test/hooks",
    scope: "webhook",
    state,
    openedAt,
    resolvedAt: state === "resolved" ? "2026-11-25T11:00:00.000Z" : null,
    headline: "5 failures in a row",
    conditions: [{ rule: "streak", name: "Failing streak", headline: "5 failures in a row" }],
    since: null,
    counts: null,
    codes: [],
    href: "/webhooks/0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d?app=0123456789abcdef",
  };
}

const OLD = incident("a", "2026-11-25T10:00:00.000Z");
const NEW = incident("b", "2026-11-25T10:05:00.000Z");

describe("the banner's words", () => {
  it("counts failing webhooks once each, and the applications the watch cannot read apart", () => {
    const app = {
      ...incident("k", "2026-11-25T10:00:00.000Z"),
      scope: "application" as const,
      webhookId: "",
    };
    expect(firingText([OLD])).toBe("1 webhook failing");
    expect(firingText([OLD, NEW, incident("c", "2026-11-25T10:06:00.000Z")])).toBe("3 webhooks failing");
    expect(firingText([OLD, NEW, app])).toBe("2 webhooks failing and 1 application the watch cannot read");
    expect(firingText([app, app])).toBe("2 applications the watch cannot read");
  });

  it("names the newest", () => {
    expect(newestFiring([NEW, OLD])).toBe(NEW);
    expect(newestFiring([OLD, NEW])).toBe(NEW);
    expect(newestFiring([])).toBeNull();
  });

  it("titles a notification as failing or recovered", () => {
    expect(incidentNotification(OLD)).toEqual({
      title: "Failing: Acme orders",
      body: "5 failures in a row (Production)",
    });
    const recovered = {
      ...OLD,
      state: "resolved" as const,
      headline: "recovered after 5 failures, 3 minutes",
    };
    expect(incidentNotification(recovered)).toEqual({
      title: "Recovered: Acme orders",
      body: "recovered after 5 failures, 3 minutes (Production)",
    });
  });
});

describe("which incidents a browser notifies", () => {
  it("records what fires when it has recorded nothing yet, without notifying", () => {
    expect(notificationsDue({ firing: [OLD], summaries: [], resolved: [] }, null)).toEqual({
      due: [],
      seen: ["firing:a"],
    });
    expect(notificationsDue({ firing: [], summaries: [], resolved: [] }, null)).toEqual({
      due: [],
      seen: [],
    });
  });

  it("notifies each incident that fires once, and its recovery when its firing was notified here", () => {
    const first = notificationsDue({ firing: [OLD, NEW], summaries: [], resolved: [] }, ["firing:a"]);
    expect(first).toEqual({ due: [NEW], seen: ["firing:a", "firing:b"] });
    expect(notificationsDue({ firing: [OLD, NEW], summaries: [], resolved: [] }, first.seen).due).toEqual([]);

    const recovered = { ...NEW, state: "resolved" as const };
    const unknown = incident("c", "2026-11-25T09:00:00.000Z", "resolved");
    const second = notificationsDue(
      { firing: [OLD], summaries: [], resolved: [recovered, unknown] },
      first.seen,
    );
    expect(second).toEqual({ due: [recovered], seen: ["firing:a", "firing:b", "resolved:b"] });
    expect(
      notificationsDue({ firing: [OLD], summaries: [], resolved: [recovered] }, second.seen).due,
    ).toEqual([]);
  });

  it("keeps the newest NOTIFIED_MAX entries", () => {
    const seen = Array.from({ length: NOTIFIED_MAX }, (_, n) => `firing:old${n}`);
    const { seen: after } = notificationsDue({ firing: [NEW], summaries: [], resolved: [] }, seen);
    expect(after).toHaveLength(NOTIFIED_MAX);
    expect(after.at(-1)).toBe("firing:b");
    expect(after[0]).toBe("firing:old1");
  });
});
