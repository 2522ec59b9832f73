import { describe, expect, it } from "vitest";
import { outboxInstancesFigure } from "./alert-figures";

describe("outboxInstancesFigure", () => {
  const input = {
    incidents: 20,
    destinations: {
      first: { requests: 21, kept: 20, splitKeys: 0 },
      second: { requests: 20, kept: 20, splitKeys: 0 },
    },
    sendingAtKill: 1,
    logRows: 40,
    delivered: 40,
    leaseSeconds: 20,
  };

  it("holds when each destination kept each incident once, a resend after the kill carrying the same webhook-id", () => {
    const figure = outboxInstancesFigure(input);
    expect(figure.holds).toBe("yes");
    expect(figure.details).toMatchObject({ expected: 40, kept: 40, requests: 41, perIncident: 1 });
    expect(figure.measured).toMatch(/^1 deliveries per destination per incident .* 1 sent again/);
  });

  it("does not hold when an incident is lost, split over two keys, left undelivered, or nothing was killed mid-send", () => {
    const first = input.destinations.first;
    const lost = { ...input.destinations, first: { ...first, kept: 19 } };
    expect(outboxInstancesFigure({ ...input, destinations: lost }).holds).toBe("no");
    const split = { ...input.destinations, first: { ...first, splitKeys: 1 } };
    expect(outboxInstancesFigure({ ...input, destinations: split }).holds).toBe("no");
    expect(outboxInstancesFigure({ ...input, delivered: 39 }).holds).toBe("no");
    expect(outboxInstancesFigure({ ...input, sendingAtKill: 0 }).holds).toBe("no");
  });
});
