/**
 * The watch's rows of the bench's table (issue 25): the overview at scale, the watcher's upstream
 * calls in steady state and for new logs, backfilling with the hub far away, two instances on one
 * PostgreSQL, and the watcher's memory. Pure: built from what watching.ts measured, judged
 * against GOALS (figures.ts), unit-tested in watch-figures.test.ts.
 */
import { GOALS } from "./figures";
import {
  formatCount,
  formatMiB,
  formatMs,
  formatRatio,
  goalText,
  judge,
  ratioFigure,
  type Figure,
} from "./report";
import { median, ratio } from "./stats";

/** The hub's page size: the watcher reads logs 50 at a time. */
export const LOG_PAGE = 50;

/** One side of the overview comparison: a console over a store of `webhooks` watches and `logs` logs. */
export interface OverviewSide {
  webhooks: number;
  logs: number;
  /** Time to the first byte of `GET /overview`, one request at a time, the sides taking turns. */
  ttfbMs: number[];
  /** The same requests until their last byte. */
  totalMs: number[];
  /** `GET /api/watches` (the same rows as JSON, from the store alone), right after each page. */
  apiMs: number[];
}

export function overviewFigure(input: {
  small: OverviewSide;
  large: OverviewSide;
  /** Upstream calls the two consoles made while they answered every request. */
  upstreamCalls: number;
  /** Seconds the store of the large side took to fill. */
  fillSeconds: number;
}): Figure {
  const { small, large, upstreamCalls } = input;
  const value = ratio(median(large.ttfbMs), median(small.ttfbMs));
  const holds =
    judge(value, GOALS.overviewScale) === "yes" && judge(upstreamCalls, GOALS.overviewCalls) === "yes";
  const side = (s: OverviewSide) => `${formatCount(s.webhooks)} watches and ${formatCount(s.logs)} logs`;
  return {
    figure: `watch overview, ${side(large)} ÷ ${side(small)}`,
    measured:
      `${formatRatio(value)} (time to first byte p50 ${formatMs(median(large.ttfbMs))} ÷ ${formatMs(median(small.ttfbMs))}; ` +
      `whole page ${formatMs(median(large.totalMs))} ÷ ${formatMs(median(small.totalMs))}; ` +
      `the store's answer alone (/api/watches) ${formatMs(median(large.apiMs))} ÷ ${formatMs(median(small.apiMs))}; ` +
      `${formatCount(large.ttfbMs.length)} requests each, in turns; ${formatCount(upstreamCalls)} upstream calls; ` +
      `store filled in ${input.fillSeconds.toFixed(1)} s, ${formatCount(large.logs / input.fillSeconds)} logs/s)`,
    goal: `${goalText(GOALS.overviewScale)}; ${formatCount(GOALS.overviewCalls.atMost)} upstream calls`,
    holds: holds ? "yes" : "no",
    details: { ratio: value, upstreamCalls, fillSeconds: input.fillSeconds, small, large },
  };
}

/**
 * Delivery health of watched webhooks answered from the store ÷ the same asked of a console with
 * no copy, which reads the hub first; the store's side must make no hub call.
 */
export function storeHealthFigure(input: {
  logs: number;
  /** Whole answers, one per webhook asked, the sides taking turns. */
  storeMs: number[];
  hubMs: number[];
  /** Upstream calls of the store's side while it answered. */
  storeCalls: number;
}): Figure {
  const store = median(input.storeMs);
  const hub = median(input.hubMs);
  const value = ratio(store, hub);
  const holds =
    judge(value, GOALS.storeHealth) === "yes" && judge(input.storeCalls, GOALS.storeHealthCalls) === "yes";
  return {
    figure: "delivery health from the store ÷ reading the hub",
    measured:
      `${formatRatio(value)} (a watched webhook with ${formatCount(input.logs)} logs: whole answer p50 ` +
      `${formatMs(store)} from the store ÷ ${formatMs(hub)} from a console with no copy, which read them from ` +
      `the hub on loopback first; ${formatCount(input.storeMs.length)} webhooks each, in turns, each asked once ` +
      `of each side; ${formatCount(input.storeCalls)} upstream calls from the store's side)`,
    goal: `${goalText(GOALS.storeHealth)}; ${formatCount(GOALS.storeHealthCalls.atMost)} upstream calls`,
    holds: holds ? "yes" : "no",
    details: { ratio: value, ...input },
  };
}

/** Upstream calls on a set of watched webhooks over a window, split by what was asked. */
export interface WatchCalls {
  /** `GET /webhook/{id}`: one per poll. */
  webhook: number;
  /** `GET /webhook/{id}/webhook-log`: pages of logs. */
  logs: number;
}

/** Steady state with nothing new: calls per watched webhook per interval. */
export function steadyFigure(input: {
  webhooks: number;
  intervalSeconds: number;
  windowSeconds: number;
  calls: WatchCalls;
}): Figure {
  const intervals = input.windowSeconds / input.intervalSeconds;
  const total = input.calls.webhook + input.calls.logs;
  // One webhook read per poll: how often each webhook was polled, against the interval asked.
  const pollEverySeconds = (input.webhooks * input.windowSeconds) / input.calls.webhook;
  return ratioFigure(
    "watcher, steady state with nothing new",
    ratio(total, input.webhooks * intervals),
    GOALS.steadyCalls,
    `upstream calls per watched webhook per interval: ${formatCount(total)} calls ` +
      `(${formatCount(input.calls.webhook)} webhook reads, ${formatCount(input.calls.logs)} log pages) for ` +
      `${formatCount(input.webhooks)} healthy webhooks over ${input.windowSeconds} s at a ${input.intervalSeconds} s interval; ` +
      `each polled every ${pollEverySeconds.toFixed(1)} s on average`,
    { ...input, intervals, pollEverySeconds },
  );
}

/**
 * New logs: the calls a catch-up makes beyond one webhook read and one log page per poll (the
 * page that meets the newest stored log, which a poll with nothing new reads too), per 50 new logs.
 */
export function newLogsFigure(input: { webhooks: number; newLogs: number; calls: WatchCalls }): Figure {
  const { calls } = input;
  const polls = calls.webhook;
  const extra = calls.logs - polls;
  return ratioFigure(
    "watcher, new logs",
    ratio(extra, input.newLogs / LOG_PAGE),
    GOALS.newLogCalls,
    `calls per ${LOG_PAGE} new logs beyond a poll's own two: ${formatCount(input.newLogs)} new logs on ` +
      `${formatCount(input.webhooks)} webhooks read in ${formatCount(calls.logs)} log pages over ${formatCount(polls)} polls`,
    { ...input, polls, extraCalls: extra },
  );
}

/** Backfilling a history with the hub `delayMs` away ÷ its floor, pages × delay ÷ concurrency. */
export function backfillFigure(input: {
  logs: number;
  delayMs: number;
  concurrency: number;
  seconds: number;
  calls: WatchCalls;
}): Figure {
  const pages = Math.ceil(input.logs / LOG_PAGE);
  const floorMs = (pages * input.delayMs) / input.concurrency;
  return ratioFigure(
    `watcher, backfill of ${formatCount(input.logs)} logs, hub ${input.delayMs} ms away`,
    ratio(input.seconds * 1000, floorMs),
    GOALS.backfill,
    `${input.seconds.toFixed(1)} s ÷ (${formatCount(pages)} pages × ${input.delayMs} ms ÷ ${input.concurrency} at once = ` +
      `${formatMs(floorMs)}); ${formatCount(input.calls.logs)} log pages and ${formatCount(input.calls.webhook)} webhook reads`,
    { ...input, pages, floorMs },
  );
}

/** Two instances on one PostgreSQL: their calls ÷ one's, then one killed and the other taking over. */
export function instancesFigures(input: {
  webhooks: number;
  windowSeconds: number;
  one: WatchCalls;
  two: WatchCalls;
  leaseSeconds: number;
  intervalSeconds: number;
  /** Webhooks the killed instance held a lease on when it died. */
  heldAtKill: number;
  /** From the kill until every one of those was polled by the other instance. */
  takeOverMs: number;
  /** After the take-over, new logs included: watched webhooks whose stored ids differ from the hub's. */
  mismatched: number;
  storedLogs: number;
}): Figure[] {
  const total = (calls: WatchCalls) => calls.webhook + calls.logs;
  // NaN: the other instance had not taken over when the bench stopped waiting.
  const leases = Number.isNaN(input.takeOverMs)
    ? Number.POSITIVE_INFINITY
    : ratio(input.takeOverMs, input.leaseSeconds * 1000);
  const holds =
    input.heldAtKill > 0 && judge(leases, GOALS.takeOverLeases) === "yes" && input.mismatched === 0;
  return [
    ratioFigure(
      "watcher, two instances on one PostgreSQL",
      ratio(total(input.two), total(input.one)),
      GOALS.twoInstances,
      `upstream calls of two instances ÷ one's: ${formatCount(total(input.two))} ÷ ${formatCount(total(input.one))} ` +
        `over ${input.windowSeconds} s on ${formatCount(input.webhooks)} watched webhooks`,
      { ...input },
    ),
    {
      figure: "watcher, one of two instances killed",
      measured:
        (Number.isFinite(leases) ? `taken over in ${formatRatio(leases)} lease periods` : "not taken over") +
        ` (${formatMs(input.takeOverMs)}, lease ${input.leaseSeconds} s, ` +
        `interval ${input.intervalSeconds} s; ${formatCount(input.heldAtKill)} webhooks leased by the killed one); ` +
        `stored ids equal to the hub's on ${formatCount(input.webhooks - input.mismatched)} of ${formatCount(input.webhooks)} ` +
        `webhooks (${formatCount(input.storedLogs)} logs, new ones sent while it died)`,
      goal: `≤ ${GOALS.takeOverLeases.atMost} lease periods; stored ids = hub's`,
      holds: holds ? "yes" : "no",
      details: { leases, ...input },
    },
  ];
}

/** The watcher process's memory while it polls `webhooks` watched webhooks, and what bounds it. */
export function watcherMemoryFigure(input: {
  webhooks: number;
  peakRssBytes: number;
  rssBytes: number;
  settings: { concurrency: number; backfillCount: number; bodyCapBytes: number };
}): Figure {
  const { settings } = input;
  return {
    figure: `watcher memory, ${formatCount(input.webhooks)} watched webhooks (reference)`,
    measured:
      `peak RSS ${formatMiB(input.peakRssBytes)}, now ${formatMiB(input.rssBytes)} (\`npm run watcher\` alone); ` +
      `bounded by WATCH_CONCURRENCY ${settings.concurrency} polls at once, each holding at most WATCH_BACKFILL ` +
      `${formatCount(settings.backfillCount)} logs with bodies cut at WATCH_BODY_CAP_BYTES ${formatCount(settings.bodyCapBytes)}`,
    goal: "report",
    holds: "report",
    details: { ...input },
  };
}
