import "server-only";
import { compilePattern, patternLabel, RedactionError } from "@/lib/domain/redact";
import { DEFAULT_MAX_DESTINATIONS } from "@/lib/domain/alerts/destinations";
import { SANDBOX_INBOX_PATH } from "@/lib/domain/alerts/sandbox-inbox";
import { DEFAULT_RESOLVE_AFTER } from "@/lib/domain/watch/failure-issue";

/**
 * The console's configuration, read from the environment when first asked for (so `next build`
 * works without it). See the configuration table in README.md and SECURITY.md.
 *
 * `validateServerConfig()` is called at start by `instrumentation.ts`, so a bad value stops the
 * server with a message naming the variable instead of failing on the first request.
 */
export interface ServerConfig {
  /** Base address of the Messaging Hub API, without a trailing slash; null when unset. */
  hubBaseUrl: string | null;
  /** True when the console was started by the launcher on top of the local sandbox. */
  sandboxMode: boolean;
  hubTimeoutMs: number;
  sessionTtlSeconds: number;
  /** Token for the sandbox's admin routes, when the sandbox demands one. */
  sandboxAdminToken: string | null;
  /** SESSION_SECRET (newest, seals new cookies) then SESSION_SECRET_PREVIOUS (still opens old ones); empty when unset. */
  sessionSecrets: string[];
  /** Secure + `__Host-` cookie: in production unless SESSION_COOKIE_INSECURE=1 (plain http on a trusted network). */
  cookieSecure: boolean;
  /** TRUST_PROXY=1: believe X-Forwarded-Host/-Proto/-For (only behind a proxy that sets them). */
  trustProxy: boolean;
  /** PUBLIC_ORIGIN: the origins the console is served at (comma-separated); empty = derive from Host. */
  publicOrigins: string[];
  /** Sign-ins allowed per client address per minute (SIGN_IN_RATE_LIMIT_PER_MINUTE, default 10). */
  signInPerMinute: number;
  /** REDIS_URL: shared state (sign-in limits, sign-outs) across instances; null = in memory, per instance. */
  redisUrl: string | null;
  history: HistoryConfig;
  watch: WatchConfig;
  alerts: AlertsConfig;
  /** REDACT_PATTERNS: the operator's redaction patterns (a JSON array of regular expressions), masked in support bundles and alerts. */
  redactPatterns: string[];
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; null = it answers callers on this machine only. */
  metricsToken: string | null;
}

export const MIN_SECRET_LENGTH = 32;

function positiveInt(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? "a positive whole number" : `a whole number from 1 to ${max}`;
    throw new Error(`${name} must be ${range}, got "${raw}". Fix it or unset it to use ${fallback}.`);
  }
  return value;
}

/** Settings of the history questions and the copies they read (lib/server/history). */
export interface HistoryConfig {
  /** HISTORY_SCAN_CONCURRENCY: hub calls in flight while a question copies older pages (default 4, at most 16). */
  concurrency: number;
  /** HISTORY_SCAN_CAP: the most recent deliveries a question copies at most, unless it asks for more (default 20,000). */
  cap: number;
  /** HISTORY_SCAN_CAP_MAX: the most a question may ask for with `cap=` (default 100,000). */
  capMax: number;
  /** HISTORY_KEY_REQUESTS_PER_MINUTE: hub calls per application key per minute for questions, per instance (default 3,000). */
  keyRequestsPerMinute: number;
  /** HISTORY_COPY_MINUTES: an unwatched webhook's copy is deleted this long after its last question (default 60). */
  copyMinutes: number;
  /** HISTORY_COPY_MAX_LOGS: the logs all unwatched webhooks' copies hold together at most (default 1,000,000). */
  copyMaxLogs: number;
}

function readHistoryConfig(): HistoryConfig {
  const capMax = positiveInt("HISTORY_SCAN_CAP_MAX", 100_000, 10_000_000);
  return {
    concurrency: positiveInt("HISTORY_SCAN_CONCURRENCY", 4, 16),
    cap: positiveInt("HISTORY_SCAN_CAP", 20_000, capMax),
    capMax,
    keyRequestsPerMinute: positiveInt("HISTORY_KEY_REQUESTS_PER_MINUTE", 3000, 1_000_000),
    copyMinutes: positiveInt("HISTORY_COPY_MINUTES", 60, 10_080),
    copyMaxLogs: positiveInt("HISTORY_COPY_MAX_LOGS", 1_000_000, 100_000_000),
  };
}

/** Settings of the watch: its store and its watcher (lib/server/watch). */
export interface WatchConfig {
  /** DATABASE_URL: PostgreSQL shared by every instance; null = the embedded database at `sqlitePath`. */
  databaseUrl: string | null;
  /** WATCH_DB: file of the embedded database (default `.data/watch.sqlite`; `:memory:` for tests). */
  sqlitePath: string;
  /** WATCH_SECRET then WATCH_SECRET_PREVIOUS, newest first; empty = derive from SESSION_SECRET. */
  secrets: string[];
  /** WATCH_IN_CONSOLE=0: this console does not run the watcher (`npm run watcher` does). */
  inConsole: boolean;
  /** WATCH_INTERVAL_SECONDS: how often a quiet, healthy webhook is polled (default 60). */
  intervalSeconds: number;
  /** WATCH_BACKFILL (`<count>,<age>`, default `10000,7d`): history read on first watch, and at most per catch-up. */
  backfillCount: number;
  backfillAgeMs: number;
  /** WATCH_RETENTION_DAYS: stored logs older than this are deleted (default 30). */
  retentionDays: number;
  /** WATCH_CONCURRENCY: webhooks polled at once by one instance (default 4, at most 32). */
  concurrency: number;
  /** WATCH_KEY_REQUESTS_PER_MINUTE: hub calls per application key per minute, per instance (default 120). */
  keyRequestsPerMinute: number;
  /** WATCH_LEASE_SECONDS: how long a claim on a webhook lasts without renewal (default 30). */
  leaseSeconds: number;
  /** WATCH_BODY_CAP_BYTES: stored bytes of a response body; a longer one is kept cut, with its full size and hash (default 256 KiB). */
  bodyCapBytes: number;
  /**
   * WATCH_ISSUE_RESOLVE_AFTER: successful deliveries in a row that resolve a failure issue by
   * itself, and end a webhook's alert incident (default 3).
   */
  issueResolveAfter: number;
}

/** `<count>,<age>` with the age in days (`7d`) or hours (`12h`). */
function readBackfill(): { backfillCount: number; backfillAgeMs: number } {
  const raw = process.env.WATCH_BACKFILL?.trim() || "10000,7d";
  const match = /^(\d+)\s*,\s*(\d+)\s*([dh])$/i.exec(raw);
  const count = Number(match?.[1]);
  const age = Number(match?.[2]);
  if (!match || count < 1 || count > 10_000_000 || age < 1) {
    throw new Error(
      `WATCH_BACKFILL must be "<logs>,<age>" like "10000,7d" (age in d or h), got "${raw}". Fix it or unset it.`,
    );
  }
  return {
    backfillCount: count,
    backfillAgeMs: age * (match[3]!.toLowerCase() === "d" ? 86_400_000 : 3_600_000),
  };
}

/** The value is never repeated in the message: it may hold a password. */
function readDatabaseUrl(): string | null {
  const raw = process.env.DATABASE_URL?.trim();
  if (!raw) return null;
  const shape = "postgres://user:password@host:5432/database";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`DATABASE_URL must be a URL like ${shape}; the value set cannot be parsed.`);
  }
  if ((url.protocol !== "postgres:" && url.protocol !== "postgresql:") || !url.hostname) {
    throw new Error(
      `DATABASE_URL must be a PostgreSQL URL like ${shape}; the value set is not one. Unset it to use the embedded database.`,
    );
  }
  return raw;
}

function readWatchConfig(): WatchConfig {
  return {
    databaseUrl: readDatabaseUrl(),
    sqlitePath: process.env.WATCH_DB?.trim() || ".data/watch.sqlite",
    secrets: readSecrets("WATCH_SECRET"),
    inConsole:
      process.env.WATCH_IN_CONSOLE === undefined ||
      process.env.WATCH_IN_CONSOLE.trim() === "" ||
      flag("WATCH_IN_CONSOLE"),
    intervalSeconds: positiveInt("WATCH_INTERVAL_SECONDS", 60, 86_400),
    ...readBackfill(),
    retentionDays: positiveInt("WATCH_RETENTION_DAYS", 30, 3650),
    concurrency: positiveInt("WATCH_CONCURRENCY", 4, 32),
    keyRequestsPerMinute: positiveInt("WATCH_KEY_REQUESTS_PER_MINUTE", 120, 100_000),
    leaseSeconds: positiveInt("WATCH_LEASE_SECONDS", 30, 3600),
    bodyCapBytes: positiveInt("WATCH_BODY_CAP_BYTES", 256 * 1024, 8 * 1024 * 1024),
    issueResolveAfter: positiveInt("WATCH_ISSUE_RESOLVE_AFTER", DEFAULT_RESOLVE_AFTER, 1000),
  };
}

/** Settings of alert delivery (lib/server/alerts). */
export interface AlertsConfig {
  /** ALERTS_ALLOW_PRIVATE=1: destinations may be http:// and on loopback or private addresses (self-hosting, tests). */
  allowPrivate: boolean;
  /** SMTP_URL: the relay email alerts go through (smtp:// or smtps://); null = no email destinations. */
  smtpUrl: string | null;
  /** ALERTS_EMAIL_FROM: the sender of alert emails. */
  emailFrom: string;
  /** ALERTS_TIMEOUT_MS: how long one attempt may take, connect to last byte (default 10000). */
  timeoutMs: number;
  /** ALERTS_ATTEMPTS: attempts per delivery, the first and its retries (default 4). */
  attempts: number;
  /** ALERTS_MAX_DESTINATIONS: destinations one application may have (default 20). */
  maxDestinations: number;
  /** SMTP_ALLOW_PLAINTEXT_AUTH=1: SMTP_URL's credentials may be sent to a relay that offers no STARTTLS. */
  smtpAllowPlaintextAuth: boolean;
  /**
   * The sandbox's alert inbox (`<HUB_BASE_URL>/_sandbox/inbox`) when the launcher started the
   * sandbox (HUB_SANDBOX=1): alerts may go there though it is http:// on loopback; null otherwise.
   */
  sandboxInbox: string | null;
  /**
   * ALERTS_PAGERDUTY_EVENTS_URL: where every PagerDuty destination's events go instead of its
   * region's Events API (a proxy, the sandbox's inbox, a test receiver); null = the region's.
   */
  pagerDutyEventsUrl: string | null;
}

/** The value is never repeated in the message: it may hold a password. */
function readSmtpUrl(): string | null {
  const raw = process.env.SMTP_URL?.trim();
  if (!raw) return null;
  const shape = "smtp://user:password@mail.example.com:587 (or smtps:// for TLS from the start)";
  if (!URL.canParse(raw))
    throw new Error(`SMTP_URL must be a URL like ${shape}; the value set cannot be parsed.`);
  const url = new URL(raw);
  if ((url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
    throw new Error(`SMTP_URL must be a URL like ${shape}; the value set is not one.`);
  }
  return raw;
}

/** HUB_SANDBOX=1: set by the launcher when it started the sandbox the console talks to. */
const readSandboxMode = () => process.env.HUB_SANDBOX === "1";

/** The sandbox's alert inbox under HUB_BASE_URL, when the launcher started that sandbox. */
function readSandboxInbox(): string | null {
  const hubBaseUrl = readHubBaseUrl();
  return readSandboxMode() && hubBaseUrl ? `${new URL(hubBaseUrl).origin}${SANDBOX_INBOX_PATH}` : null;
}

function readAlertsConfig(): AlertsConfig {
  return {
    allowPrivate: flag("ALERTS_ALLOW_PRIVATE"),
    smtpUrl: readSmtpUrl(),
    emailFrom: process.env.ALERTS_EMAIL_FROM?.trim() || "Webhook Console <alerts@localhost>",
    timeoutMs: positiveInt("ALERTS_TIMEOUT_MS", 10_000, 120_000),
    attempts: positiveInt("ALERTS_ATTEMPTS", 4, 10),
    maxDestinations: positiveInt("ALERTS_MAX_DESTINATIONS", DEFAULT_MAX_DESTINATIONS, 1000),
    smtpAllowPlaintextAuth: flag("SMTP_ALLOW_PLAINTEXT_AUTH"),
    sandboxInbox: readSandboxInbox(),
    pagerDutyEventsUrl: readPagerDutyEventsUrl(),
  };
}

/** The value is never repeated in the message: a proxy's URL may hold a password. */
function readPagerDutyEventsUrl(): string | null {
  const raw = process.env.ALERTS_PAGERDUTY_EVENTS_URL?.trim();
  if (!raw) return null;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol))
    throw new Error(
      "ALERTS_PAGERDUTY_EVENTS_URL must be an http(s) URL like https://events.eu.pagerduty.com/v2/enqueue. Fix it or unset it to use each destination's region.",
    );
  return raw;
}

function flag(name: string): boolean {
  const raw = process.env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "" || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw new Error(`${name} must be 1 or 0 (or true/false), got "${process.env[name]}".`);
}

function readHubBaseUrl(): string | null {
  const raw = process.env.HUB_BASE_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`HUB_BASE_URL must be an absolute http(s) URL, got "${raw}".`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`HUB_BASE_URL must start with https:// (or http:// for a local hub), got "${raw}".`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new Error("HUB_BASE_URL must be a plain base address (no user:password@, ?query or #fragment).");
  }
  return url.toString().replace(/\/+$/, "");
}

const GENERATE_HINT =
  "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"";

/** `<NAME>` (newest) then `<NAME>_PREVIOUS` (comma-separated, still accepted); empty when unset. */
function readSecrets(name: "SESSION_SECRET" | "WATCH_SECRET"): string[] {
  const current = process.env[name] ?? "";
  const previous = (process.env[`${name}_PREVIOUS`] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (current === "") {
    if (previous.length > 0) {
      throw new Error(`${name}_PREVIOUS is set but ${name} is not. Set ${name} to the newest secret.`);
    }
    return [];
  }
  if (current.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `${name} must be at least ${MIN_SECRET_LENGTH} characters (it has ${current.length}). ${GENERATE_HINT}`,
    );
  }
  previous.forEach((secret, index) => {
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new Error(
        `${name}_PREVIOUS entry ${index + 1} must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length}). Remove it or fix it.`,
      );
    }
  });
  return [current, ...previous.filter((s) => s !== current)];
}

function readPublicOrigins(): string[] {
  const raw = process.env.PUBLIC_ORIGIN?.trim();
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`PUBLIC_ORIGIN must list origins like https://console.example.com, got "${entry}".`);
      }
      if (
        (url.protocol !== "https:" && url.protocol !== "http:") ||
        url.origin !== entry.replace(/\/$/, "")
      ) {
        throw new Error(
          `PUBLIC_ORIGIN entries must be bare origins (scheme://host[:port], no path), got "${entry}".`,
        );
      }
      return url.origin;
    });
}

/** The value is never repeated in the message: it may hold a password. */
function readRedisUrl(): string | null {
  const raw = process.env.REDIS_URL?.trim();
  if (!raw) return null;
  const shape = "redis://[:password@]host[:port][/db] (or rediss:// for TLS)";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`REDIS_URL must be a URL like ${shape}; the value set cannot be parsed.`);
  }
  if ((url.protocol !== "redis:" && url.protocol !== "rediss:") || !url.hostname) {
    throw new Error(`REDIS_URL must be a URL like ${shape}; the value set is not one.`);
  }
  const db = url.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d+$/.test(db)) {
    throw new Error(`REDIS_URL may end with a database number only (/0, /1, ...), not "/${db}".`);
  }
  return raw;
}

/** A JSON array of strings, each `source` or `/source/flags`; every one must compile. */
function readRedactPatterns(): string[] {
  const raw = process.env.REDACT_PATTERNS?.trim();
  if (!raw) return [];
  const shape = 'a JSON array of regular expressions, e.g. ["ORD-\\d{6}", "/acct_[a-z0-9]+/i"]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`REDACT_PATTERNS must be ${shape}; the value set is not JSON.`);
  }
  if (!Array.isArray(parsed) || !parsed.every((entry) => typeof entry === "string")) {
    throw new Error(`REDACT_PATTERNS must be ${shape}; the value set is not an array of strings.`);
  }
  parsed.forEach((entry, index) => {
    try {
      compilePattern(entry, patternLabel(index, entry));
    } catch (error) {
      if (error instanceof RedactionError) throw new Error(error.message);
      throw error;
    }
  });
  return parsed;
}

/** Shortest METRICS_TOKEN: a scraper's token is guessed only by trying it. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/** The value is never repeated in the message: it is a secret. */
function readMetricsToken(): string | null {
  const raw = process.env.METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(raw)) {
    throw new Error(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (it has ${raw.length}). ${GENERATE_HINT}`,
    );
  }
  return raw;
}

let cached: ServerConfig | undefined;

export function serverConfig(): ServerConfig {
  cached ??= {
    hubBaseUrl: readHubBaseUrl(),
    sandboxMode: readSandboxMode(),
    hubTimeoutMs: positiveInt("HUB_TIMEOUT_MS", 10_000),
    sessionTtlSeconds: positiveInt("SESSION_TTL_SECONDS", 28_800),
    sandboxAdminToken: process.env.SANDBOX_ADMIN_TOKEN?.trim() || null,
    sessionSecrets: readSecrets("SESSION_SECRET"),
    cookieSecure: process.env.NODE_ENV === "production" && !flag("SESSION_COOKIE_INSECURE"),
    trustProxy: flag("TRUST_PROXY"),
    publicOrigins: readPublicOrigins(),
    signInPerMinute: positiveInt("SIGN_IN_RATE_LIMIT_PER_MINUTE", 10),
    redisUrl: readRedisUrl(),
    history: readHistoryConfig(),
    watch: readWatchConfig(),
    alerts: readAlertsConfig(),
    redactPatterns: readRedactPatterns(),
    metricsToken: readMetricsToken(),
  };
  return cached;
}

/**
 * Reads and checks every variable now; throws an Error naming the first bad one. Warnings (not
 * errors) are returned for settings that work but deserve a look.
 */
export function validateServerConfig(): { warnings: string[] } {
  resetServerConfigForTests();
  const config = serverConfig();
  const warnings: string[] = [];
  if (config.sessionTtlSeconds <= 60) {
    throw new Error(
      "SESSION_TTL_SECONDS must be more than 60 (the session cookie expires 60 s before the seal does).",
    );
  }
  if (process.env.NODE_ENV === "production" && !config.cookieSecure) {
    warnings.push(
      "SESSION_COOKIE_INSECURE=1: the session cookie is sent over plain http. Use it only on a trusted network; serve the console over HTTPS instead.",
    );
  }
  if (config.alerts.smtpAllowPlaintextAuth && config.alerts.smtpUrl?.startsWith("smtp:")) {
    warnings.push(
      "SMTP_ALLOW_PLAINTEXT_AUTH=1: SMTP_URL's user name and password are sent in clear to a relay that offers no STARTTLS (or to anyone who strips it on the way). Use it only on a trusted network; prefer smtps://.",
    );
  }
  if (config.alerts.allowPrivate) {
    warnings.push(
      "ALERTS_ALLOW_PRIVATE=1: alert destinations may use http:// and loopback, private and link-local addresses. Use it only for self-hosting and tests: anyone who can add a destination can make the console call inside your network.",
    );
  }
  return { warnings };
}

/** For tests that change the environment between cases. */
export function resetServerConfigForTests(): void {
  cached = undefined;
}
