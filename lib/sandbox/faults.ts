/**
 * Fault injection on the spec routes (`/v1/...`): added latency, 5xx errors, 429 with
 * `Retry-After`, and garbled 200 answers, so the console's fault handling can be tested against
 * the real sandbox. Switched at start by `SANDBOX_FAULT_*` (config.ts) and at run time by
 * `GET/PUT/DELETE /_sandbox/faults` (routes-admin.ts); applied in one place, server.ts, after the
 * route is matched and BEFORE its handler runs: a faulted request is never authenticated, read or
 * handled, so it changes no stored data (a faulted send stores no message, queues no delivery).
 * Admin routes, health and the receivers are never faulted.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { sendJson, sendText } from "./http";
import { Prng } from "./prng";

/** The part of the sandbox that faults may touch: the spec's routes. */
const SPEC_PATH_PREFIX = "/v1/";
/** Longest added latency (ms). */
const MAX_FAULT_LATENCY_MS = 60_000;

/** `200` → { min: 200, max: 200 }; `"200-800"` → { min: 200, max: 800 }; anything else is left for zod to refuse. */
function toRange(value: unknown): unknown {
  if (typeof value === "number") return { min: value, max: value };
  if (typeof value !== "string") return value;
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  return match ? { min: Number(match[1]), max: Number(match[2] ?? match[1]) } : value;
}

/** A number, or (from the environment) a string holding one. */
const numeric = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;

// Messages name no field: the admin route prefixes the field, the environment the variable.
const RATE_HINT = "must be a number from 0 to 1 (the share of requests)";
const rate = z.preprocess(numeric, z.number({ error: RATE_HINT }).min(0, RATE_HINT).max(1, RATE_HINT));

const whole = (min: number, max: number) =>
  z.preprocess(
    numeric,
    z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

const LATENCY_HINT = `must be milliseconds (0-${MAX_FAULT_LATENCY_MS}), or a range such as "200-800"`;
const latencySchema = z.preprocess(
  toRange,
  z
    .strictObject(
      {
        min: z.number().int().min(0, LATENCY_HINT).max(MAX_FAULT_LATENCY_MS, LATENCY_HINT),
        max: z.number().int().min(0, LATENCY_HINT).max(MAX_FAULT_LATENCY_MS, LATENCY_HINT),
      },
      { error: LATENCY_HINT },
    )
    .refine(
      (range) => range.min <= range.max,
      'must be a range whose first number is not above its second, such as "200-800"',
    ),
);

/**
 * The fault settings, as the admin route takes them (JSON) and as the environment gives them
 * (strings; see `FAULT_ENV`). Every field is optional; absent means off (or the default).
 * The three rates are shares of the requests in scope, drawn with one roll, so they may add up
 * to 1 at most: `errorRate: 0.2, garbleRate: 0.1` faults 30% of requests, 20% + 10%.
 */
export const faultSettingsSchema = z
  .strictObject({
    /** Added before every request in scope, faulted or not: a fixed delay or a `min-max` range (uniform). */
    latencyMs: latencySchema.default({ min: 0, max: 0 }),
    /** Share answered 500 or 503 (evenly) with a JSON error. */
    errorRate: rate.default(0),
    /** Share answered 429 with `Retry-After: retryAfterSeconds`. */
    rateLimitRate: rate.default(0),
    /** Share answered 200 with a garbled body: HTML, cut-off JSON, or JSON of the wrong shape, in turn. */
    garbleRate: rate.default(0),
    retryAfterSeconds: whole(1, 3600).default(2),
    /** Only requests whose path starts with this are in scope (e.g. one webhook's `/webhook-log`). */
    pathPrefix: z
      .string({ error: "must be a path starting with /v1/" })
      .startsWith(SPEC_PATH_PREFIX, "must be a path starting with /v1/ (only the spec routes can be faulted)")
      .max(500)
      .default(SPEC_PATH_PREFIX),
    /** Seed of the PRNG that draws rates and latencies: the same settings give the same sequence. */
    seed: whole(0, 2 ** 32 - 1).default(1),
  })
  .refine(
    (s) => {
      const rates = [s.errorRate, s.rateLimitRate, s.garbleRate];
      // A rate out of 0..1 has its own issue already.
      return rates.some((r) => r < 0 || r > 1) || rates.reduce((sum, r) => sum + r, 0) <= 1 + 1e-9;
    },
    {
      message:
        "the error, rate-limit and garble rates add up to more than 1: each is a share of the requests, so together they may be 1 at most",
      path: ["errorRate"],
    },
  );

export type FaultSettings = z.output<typeof faultSettingsSchema>;

/** What `startSandbox({ faults })` and `PUT /_sandbox/faults` take; see the schema for each field. */
export interface FaultSettingsInput {
  /** Milliseconds, `"min-max"`, or `{ min, max }`. */
  latencyMs?: number | string | { min: number; max: number };
  errorRate?: number;
  rateLimitRate?: number;
  garbleRate?: number;
  retryAfterSeconds?: number;
  pathPrefix?: string;
  seed?: number;
}

/** The environment variable of each setting (README.md beside this file, "Fault injection"). */
const FAULT_ENV = {
  latencyMs: "SANDBOX_FAULT_LATENCY_MS",
  errorRate: "SANDBOX_FAULT_ERROR_RATE",
  rateLimitRate: "SANDBOX_FAULT_RATE_LIMIT_RATE",
  garbleRate: "SANDBOX_FAULT_GARBLE_RATE",
  retryAfterSeconds: "SANDBOX_FAULT_RETRY_AFTER_S",
  pathPrefix: "SANDBOX_FAULT_PATH_PREFIX",
  seed: "SANDBOX_FAULT_SEED",
} as const satisfies Record<keyof FaultSettings, string>;

export const NO_FAULTS: FaultSettings = faultSettingsSchema.parse({});

/** Parses programmatic settings (`startSandbox({ faults })`); throws a readable Error when invalid. */
export function parseFaultSettings(input: FaultSettingsInput | undefined): FaultSettings {
  const parsed = faultSettingsSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw new Error(
    `Invalid fault settings: ${parsed.error.issues.map((i) => `${i.path.join(".") || "faults"}: ${i.message}`).join("; ")}`,
  );
}

/** The settings from `SANDBOX_FAULT_*` (empty counts as unset); issues name the variable. */
export function faultSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): {
  settings?: FaultSettings;
  issues: string[];
} {
  const input: Record<string, string> = {};
  for (const [field, name] of Object.entries(FAULT_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== "") input[field] = value;
  }
  const parsed = faultSettingsSchema.safeParse(input);
  if (parsed.success) return { settings: parsed.data, issues: [] };
  const issues = parsed.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? "errorRate") as keyof FaultSettings;
    return `${FAULT_ENV[field]}: ${issue.message}`;
  });
  return { issues };
}

/** A fixed latency as a number, a range as `"min-max"`. */
const latencyJson = ({ min, max }: FaultSettings["latencyMs"]) => (min === max ? min : `${min}-${max}`);

/** The settings as JSON, in the shape PUT takes. */
function faultSettingsJson(settings: FaultSettings) {
  return { ...settings, latencyMs: latencyJson(settings.latencyMs) };
}

export function faultsActive(settings: FaultSettings): boolean {
  return (
    settings.latencyMs.max > 0 ||
    settings.errorRate > 0 ||
    settings.rateLimitRate > 0 ||
    settings.garbleRate > 0
  );
}

/** One line for people: what is on, or "off". */
export function describeFaults(settings: FaultSettings): string {
  if (!faultsActive(settings)) return "off";
  const parts: string[] = [];
  if (settings.latencyMs.max > 0) parts.push(`latency ${latencyJson(settings.latencyMs)} ms`);
  if (settings.errorRate > 0) parts.push(`error rate ${settings.errorRate} (500/503)`);
  if (settings.rateLimitRate > 0)
    parts.push(`429 rate ${settings.rateLimitRate} (Retry-After ${settings.retryAfterSeconds})`);
  if (settings.garbleRate > 0)
    parts.push(`garble rate ${settings.garbleRate} (200, not JSON or wrong shape)`);
  return `${parts.join(", ")} on ${settings.pathPrefix}*${settings.seed === NO_FAULTS.seed ? "" : ` (seed ${settings.seed})`}`;
}

type FaultKind = "error" | "rate_limit" | "garble";
const GARBLE_KINDS = ["html", "cut_json", "wrong_shape"] as const;

/** How many requests were in scope, delayed, and answered with each fault since the settings were last set. */
interface FaultCounts {
  requests: number;
  delayed: number;
  errors: number;
  rateLimited: number;
  garbled: number;
}

const zeroCounts = (): FaultCounts => ({ requests: 0, delayed: 0, errors: 0, rateLimited: 0, garbled: 0 });

/** What happens to one request: a delay, then its handler (fault null) or a fault's answer. */
interface FaultPlan {
  delayMs: number;
  fault: FaultKind | null;
  /** 0..1 within the fault's share, to pick 500 or 503. */
  within: number;
}

/** Holds the current settings and applies them to each request in scope. */
export class FaultInjector {
  private current: FaultSettings = NO_FAULTS;
  private prng = new Prng(NO_FAULTS.seed);
  private counts = zeroCounts();

  constructor(
    initial: FaultSettings = NO_FAULTS,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.set(initial, { quiet: true });
  }

  get settings(): FaultSettings {
    return this.current;
  }

  get active(): boolean {
    return faultsActive(this.current);
  }

  /** Replaces the settings (absent fields off); restarts the PRNG from the seed and the counts. */
  set(settings: FaultSettings, { quiet = false }: { quiet?: boolean } = {}): void {
    this.current = settings;
    this.prng = new Prng(settings.seed);
    this.counts = zeroCounts();
    if (!quiet) this.log(`sandbox: fault injection ${describeFaults(settings)}`);
  }

  /** `GET /_sandbox/faults`: the settings (as PUT takes them), whether any is on, and the counts. */
  state() {
    return { active: this.active, ...faultSettingsJson(this.current), injected: { ...this.counts } };
  }

  private plan(): FaultPlan {
    const { latencyMs, errorRate, rateLimitRate, garbleRate } = this.current;
    const delayMs = latencyMs.max > 0 ? this.prng.int(latencyMs.min, latencyMs.max) : 0;
    // One roll for the outcome, so each rate is exactly the share of requests it gets.
    const roll = errorRate + rateLimitRate + garbleRate > 0 ? this.prng.next() : 1;
    if (roll < errorRate) return { delayMs, fault: "error", within: roll / errorRate };
    if (roll < errorRate + rateLimitRate) return { delayMs, fault: "rate_limit", within: 0 };
    if (roll < errorRate + rateLimitRate + garbleRate) return { delayMs, fault: "garble", within: 0 };
    return { delayMs, fault: null, within: 0 };
  }

  /**
   * Called before the handler of a matched route. Resolves `true` when the request was answered
   * (a fault) or dropped (the caller left during the added latency: as if the hub never got to
   * it, so nothing is stored), `false` when the handler should run.
   */
  async intercept(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    // pathPrefix starts with SPEC_PATH_PREFIX (the schema says so): only spec routes are faulted.
    if (!this.active || !pathname.startsWith(this.current.pathPrefix)) return false;
    const plan = this.plan();
    this.counts.requests++;
    if (plan.delayMs > 0) {
      this.counts.delayed++;
      await delayUnlessClosed(res, plan.delayMs);
      if (res.destroyed || req.socket.destroyed) return true;
    }
    if (plan.fault === null) return false;
    // The request body is never read: drain it so the connection stays usable.
    req.resume();
    const header = { "x-sandbox-fault": plan.fault };
    if (plan.fault === "error") {
      this.counts.errors++;
      const status = plan.within < 0.5 ? 500 : 503;
      sendJson(
        res,
        status,
        {
          error: {
            code: status === 500 ? "internal_error" : "service_unavailable",
            message: `Injected fault (errorRate): the sandbox answered ${status} without handling the request. Nothing was changed.`,
          },
        },
        header,
      );
    } else if (plan.fault === "rate_limit") {
      this.counts.rateLimited++;
      const seconds = this.current.retryAfterSeconds;
      sendJson(
        res,
        429,
        {
          error: {
            code: "rate_limited",
            message: `Injected fault (rateLimitRate): too many requests; try again in ${seconds} s.`,
          },
        },
        { ...header, "retry-after": String(seconds) },
      );
    } else {
      const kind = GARBLE_KINDS[this.counts.garbled++ % GARBLE_KINDS.length] ?? "html";
      sendGarbled(res, kind, header);
    }
    return true;
  }
}

/** A 200 that a careful client must refuse: not JSON, cut-off JSON, or JSON that fits no spec answer. */
function sendGarbled(
  res: ServerResponse,
  kind: (typeof GARBLE_KINDS)[number],
  header: Record<string, string>,
): void {
  const bodies = {
    html: [
      "text/html; charset=utf-8",
      "<!doctype html><html><body><h1>Service temporarily overloaded</h1><p>Injected fault (garbleRate).</p></body></html>",
    ],
    cut_json: ["application/json; charset=utf-8", '{"data":[{"id":"3f0c9a52-1b7e-4d2a-8c3f-0e5d7b'],
    // An array where every spec answer is an object, holding fields of the wrong types.
    wrong_shape: [
      "application/json; charset=utf-8",
      '[{"id":42,"numberOfErrors":"many","active":"yes","status":"Garbled","pagination":null}]',
    ],
  } as const;
  const [type, text] = bodies[kind];
  sendText(res, 200, type, text, { "cache-control": "no-store", "x-sandbox-garble": kind, ...header });
}

/** Waits `ms`, or less when the response closes first (the caller went away, or the server stops). */
function delayUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once("close", done);
  });
}
