import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { HealthSummary } from "@/lib/domain/history/health";
import { DeliveryHealth } from "@/components/health/delivery-health";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));

const AS_OF = Date.parse("2025-11-20T20:30:00.000Z");
const ago = (minutes: number) => new Date(AS_OF - minutes * 60_000).toISOString();

const summary: HealthSummary = {
  from: ago(60),
  to: ago(0),
  bucketMs: 3_600_000,
  buckets: [{ start: ago(60), success: 3, failed: 1 }],
  attempts: 4,
  success: 3,
  failed: 1,
  successRate: 75,
  lastSuccess: { at: ago(4), logId: "l-1" },
  lastFailure: { at: ago(2 * 24 * 60), logId: "l-2", statusCode: 500 },
  failingStreak: null,
  failuresByCode: [{ statusCode: 500, count: 1 }],
};

describe("DeliveryHealth, as the server writes it", () => {
  it("says how long ago the last success was from the answer's own time (no zone needed), an older one in UTC", () => {
    const html = renderToString(
      <DeliveryHealth
        summary={summary}
        read={4}
        source={{ asOf: new Date(AS_OF).toISOString(), watched: true, logs: 4, complete: true, cutBodies: 0 }}
        partial={null}
        filterHref={() => "/webhooks/wh-1"}
        retry={null}
      />,
    );
    expect(html).toMatch(/<time[^>]*>4 min ago<\/time>/);
    expect(html).toMatch(/<time[^>]*>18 Nov 2025, 20:30:00 UTC<\/time>/);
  });
});
