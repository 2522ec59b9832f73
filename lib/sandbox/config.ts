/**
 * The sandbox's options, and how they are read from the environment.
 * `startSandbox()` takes `SandboxOptions`; `main.ts` builds them with `optionsFromEnv()`.
 */
import { z } from "zod";
import {
  faultSettingsFromEnv,
  parseFaultSettings,
  type FaultSettings,
  type FaultSettingsInput,
} from "./faults";

/** The first line `npm run sandbox` prints, followed by the URL (the launcher and tests read the port from it). */
export const READY_LINE_PREFIX = "Messaging Hub sandbox listening on ";

const SEED_MODES = ["demo", "none"] as const;
export type SeedMode = (typeof SEED_MODES)[number];

export interface SandboxOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one (read it back from `Sandbox.port`). Default 4010. */
  port?: number;
  /** SQLite file, or `:memory:`. Default `.data/sandbox.sqlite`. */
  dbPath?: string;
  /** `demo` loads the demo data when the database is empty; `none` starts empty. Default `demo`. */
  seed?: SeedMode;
  /** When set, `/_sandbox/*` admin routes require `Authorization: Bearer <token>`; else loopback only. */
  adminToken?: string;
  /** How long one delivery waits for the endpoint (whole exchange). Default 5000. */
  deliveryTimeoutMs?: number;
  /** Deliveries in flight at once, over all webhooks. Default 8. */
  deliveryConcurrency?: number;
  /** Deliveries in flight at once to one webhook, so one hanging endpoint cannot starve the others. Default 4. */
  perWebhookConcurrency?: number;
  /** Port of the alert inbox's SMTP listener (inbox-smtp.ts); 0 picks a free one (read it back from `Sandbox.smtpPort`). Default 0. */
  smtpPort?: number;
  /** Fault injection on the spec routes at start (faults.ts); changed at run time by `PUT /_sandbox/faults`. Default: off. */
  faults?: FaultSettingsInput;
  /** Where the sandbox writes its own log lines (delivery errors, start-up notes). Default: stderr. */
  log?: (line: string) => void;
}

export type ResolvedOptions = Required<Omit<SandboxOptions, "adminToken" | "faults">> & {
  adminToken: string | undefined;
  faults: FaultSettings;
};

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 4010,
  dbPath: ".data/sandbox.sqlite",
  seed: "demo",
  deliveryTimeoutMs: 5000,
  deliveryConcurrency: 8,
  perWebhookConcurrency: 4,
  smtpPort: 0,
} as const satisfies Partial<ResolvedOptions>;

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  return {
    host: options.host ?? DEFAULTS.host,
    port: options.port ?? DEFAULTS.port,
    dbPath: options.dbPath ?? DEFAULTS.dbPath,
    seed: options.seed ?? DEFAULTS.seed,
    adminToken: options.adminToken || undefined,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? DEFAULTS.deliveryTimeoutMs,
    deliveryConcurrency: options.deliveryConcurrency ?? DEFAULTS.deliveryConcurrency,
    perWebhookConcurrency: options.perWebhookConcurrency ?? DEFAULTS.perWebhookConcurrency,
    smtpPort: options.smtpPort ?? DEFAULTS.smtpPort,
    faults: parseFaultSettings(options.faults),
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}

const whole = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

const envSchema = z.object({
  SANDBOX_HOST: z.string().min(1).optional(),
  SANDBOX_PORT: whole("SANDBOX_PORT", 0, 65535).optional(),
  SANDBOX_DB: z.string().min(1).optional(),
  SANDBOX_SEED: z.enum(SEED_MODES, { error: "SANDBOX_SEED must be demo or none" }).optional(),
  SANDBOX_ADMIN_TOKEN: z.string().optional(),
  SANDBOX_DELIVERY_TIMEOUT_MS: whole("SANDBOX_DELIVERY_TIMEOUT_MS", 1, 600_000).optional(),
  SANDBOX_DELIVERY_CONCURRENCY: whole("SANDBOX_DELIVERY_CONCURRENCY", 1, 256).optional(),
  SANDBOX_SMTP_PORT: whole("SANDBOX_SMTP_PORT", 0, 65535).optional(),
});

/** Reads the `SANDBOX_*` variables; empty values count as unset. Throws a readable Error when one is invalid. */
export function optionsFromEnv(env: Readonly<Record<string, string | undefined>>): SandboxOptions {
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k.startsWith("SANDBOX_") && v !== ""),
  );
  const parsed = envSchema.safeParse(present);
  const faults = faultSettingsFromEnv(present);
  if (!parsed.success || !faults.settings) {
    const lines = [
      ...(parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? []),
      ...faults.issues,
    ];
    throw new Error(`Invalid sandbox configuration:\n${lines.map((line) => `- ${line}`).join("\n")}`);
  }
  const e = parsed.data;
  return {
    host: e.SANDBOX_HOST,
    port: e.SANDBOX_PORT,
    dbPath: e.SANDBOX_DB,
    seed: e.SANDBOX_SEED,
    adminToken: e.SANDBOX_ADMIN_TOKEN,
    deliveryTimeoutMs: e.SANDBOX_DELIVERY_TIMEOUT_MS,
    deliveryConcurrency: e.SANDBOX_DELIVERY_CONCURRENCY,
    smtpPort: e.SANDBOX_SMTP_PORT,
    faults: faults.settings,
  };
}
