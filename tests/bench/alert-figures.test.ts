import { describe, expect, it } from "vitest";
import {
  alertLatencyFigure,
  demoIncidentsFigure,
  fairnessFigure,
  latencyGoalMs,
  outageFigure,
  outboxInstancesFigure,
  recoveryFigure,
} from "./alert-figures";

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

describe("alertLatencyFigure", () => {
  const latenciesMs = Array.from({ length: 20 }, (_, i) => 5000 + i * 500);

  it("sets the goal at 1.5 × the interval + 1 s and compares the p95 with it", () => {
    expect(latencyGoalMs(10)).toBe(16_000);
    const figure = alertLatencyFigure({ intervalSeconds: 10, latenciesMs, alerts: 20 });
    // p95 of 5.0 .. 14.5 s by type-7 interpolation: 14.025 s.
    expect(figure.details).toMatchObject({ goalMs: 16_000, p50: 9750, p95: 14_025 });
    expect(figure.details.ratio).toBeCloseTo(14_025 / 16_000);
    expect(figure.holds).toBe("yes");
    expect(figure.measured).toMatch(
      /^0\.88 \(p95 14\.0 s ÷ 16\.0 s\); p50 9\.8 s, max 14\.5 s; 20 of 20 incidents/,
    );
  });

  it("does not hold when the p95 is over the goal or an incident was never alerted", () => {
    expect(alertLatencyFigure({ intervalSeconds: 5, latenciesMs, alerts: 20 }).holds).toBe("no");
    const missed = alertLatencyFigure({
      intervalSeconds: 10,
      latenciesMs: [...latenciesMs.slice(1), null],
      alerts: 19,
    });
    expect(missed.holds).toBe("no");
    expect(missed.measured).toMatch(/19 of 20 incidents alerted/);
    const none = alertLatencyFigure({ intervalSeconds: 10, latenciesMs: [null, null], alerts: 0 });
    expect(none).toMatchObject({ holds: "no", measured: "no alert arrived for 2 incidents" });
  });
});

describe("fairnessFigure", () => {
  const input = {
    intervalSeconds: 10,
    latenciesMs: Array.from({ length: 20 }, (_, i) => 5000 + i * 500),
    alerts: 20,
    slowDestinations: 100,
    slow: { fewestUnsettled: 63, mostInFlight: 4 },
  };

  it("is the latency row of the others, while the slow application's deliveries waited or were in flight", () => {
    const figure = fairnessFigure(input);
    expect(figure.figure).toBe(
      "alert latency with one application's 100 slow destinations, 20 incidents of others, poll interval 10 s",
    );
    expect(figure.holds).toBe("yes");
    expect(figure.details.ratio).toBeCloseTo(14_025 / 16_000);
    expect(figure.measured).toMatch(
      /^0\.88 \(p95 14\.0 s ÷ 16\.0 s\).*at least 63 deliveries waiting or in flight, at most 4 in flight$/,
    );
  });

  it("does not hold when the others wait past the goal, or the slow one's load ended before the measure did", () => {
    expect(fairnessFigure({ ...input, intervalSeconds: 5 }).holds).toBe("no");
    expect(fairnessFigure({ ...input, slow: { fewestUnsettled: 0, mostInFlight: 4 } }).holds).toBe("no");
  });
});

describe("outageFigure", () => {
  const side = { firing: 1, summaries: 1, listed: 200, firstAfterSeconds: 24.2, resolved: 1 };
  const input = {
    webhooks: 200,
    destinations: { "on-call": side, team: side },
    unreadable: 200,
    observedSeconds: 61.4,
    cooldownMinutes: 30,
  };

  it("holds with one summary per destination listing every webhook", () => {
    const figure = outageFigure(input);
    expect(figure.holds).toBe("yes");
    expect(figure.measured).toBe(
      "1 alert per destination at most (2 destinations) in 61 s of a 30 min cooldown, 200 webhooks found " +
        "unreadable in it; the summary lists " +
        "200 of 200 webhooks; first 24 s after the outage began; 1 + 1 recovery notices after it",
    );
  });

  it("does not hold with a second alert, no summary, or a summary missing webhooks", () => {
    const twice = { ...input, destinations: { ...input.destinations, team: { ...side, firing: 2 } } };
    expect(outageFigure(twice)).toMatchObject({ holds: "no", details: { most: 2 } });
    const alone = {
      ...input,
      destinations: { ...input.destinations, team: { ...side, summaries: 0, listed: 0 } },
    };
    expect(outageFigure(alone).holds).toBe("no");
    const short = { ...input, destinations: { ...input.destinations, team: { ...side, listed: 150 } } };
    expect(outageFigure(short)).toMatchObject({ holds: "no", details: { fewestListed: 150 } });
    const silent = {
      ...input,
      destinations: { "on-call": { ...side, firing: 0, summaries: 0, listed: 0, firstAfterSeconds: null } },
    };
    expect(outageFigure(silent).measured).toMatch(/first never came/);
    expect(outageFigure(silent).holds).toBe("no");
  });
});

describe("demoIncidentsFigure", () => {
  const input = {
    failing: 8,
    incidents: 8,
    webhooks: 8,
    ofFailing: 8,
    conditions: 21,
    summaries: 1,
    alerts: 3,
  };

  it("holds with one incident per failing demo webhook", () => {
    const figure = demoIncidentsFigure(input);
    expect(figure.holds).toBe("yes");
    expect(figure.measured).toBe(
      "8 (one per webhook: 8 of the 8 failing), listing 21 conditions; 1 summary, 3 alerts received",
    );
  });

  it.each([
    ["an incident per rule", { incidents: 23 }],
    ["a failing webhook without one", { incidents: 7, webhooks: 7, ofFailing: 7 }],
    ["one of a healthy webhook", { ofFailing: 7 }],
  ])("does not hold with %s", (_name, change) => {
    expect(demoIncidentsFigure({ ...input, ...change }).holds).toBe("no");
  });
});

describe("recoveryFigure", () => {
  const input = {
    intervalSeconds: 10,
    resolveAfter: 3,
    successes: 12,
    window: { failures: 12, attempts: 25 },
    afterMs: 3200,
    waitedSeconds: 60,
  };

  it("holds within two poll intervals of the success that makes 3 in a row", () => {
    const figure = recoveryFigure(input);
    expect(figure.holds).toBe("yes");
    expect(figure.measured).toBe(
      "3.2 s (0.32 poll intervals) after success 3 of 12 in a row; 12 of 25 attempts in the failure rate's window failed",
    );
    expect(recoveryFigure({ ...input, afterMs: 20_001 }).holds).toBe("no");
  });

  it("does not hold when none came", () => {
    const figure = recoveryFigure({ ...input, afterMs: null });
    expect(figure.holds).toBe("no");
    expect(figure.measured).toMatch(/^none within 60 s of 12 successes/);
  });
});
