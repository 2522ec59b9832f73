import { afterEach, describe, expect, it } from "vitest";
import { serverConfig, validateServerConfig } from "@/lib/server/config";
import { restoreEnv, stubEnv as withEnv } from "@/tests/support/env";

afterEach(() => {
  restoreEnv();
});

const GOOD = "a-good-session-secret-of-32-chars!!";

describe("validateServerConfig", () => {
  it.each([
    [{ SESSION_SECRET: "short" }, /SESSION_SECRET must be at least 32 characters \(it has 5\)/],
    [
      { SESSION_SECRET: GOOD, SESSION_SECRET_PREVIOUS: "tiny" },
      /SESSION_SECRET_PREVIOUS entry 1 must be at least 32/,
    ],
    [
      { SESSION_SECRET: "", SESSION_SECRET_PREVIOUS: GOOD },
      /SESSION_SECRET_PREVIOUS is set but SESSION_SECRET is not/,
    ],
    [{ HUB_BASE_URL: "ftp://hub" }, /HUB_BASE_URL must start with https/],
    [{ HUB_BASE_URL: "not a url" }, /HUB_BASE_URL must be an absolute/],
    [{ HUB_BASE_URL: "https://user:pw@hub.example" }, /HUB_BASE_URL must be a plain base address/],
    [{ HUB_TIMEOUT_MS: "-5" }, /HUB_TIMEOUT_MS must be a positive whole number/],
    [
      { HISTORY_SCAN_CONCURRENCY: "99" },
      /HISTORY_SCAN_CONCURRENCY must be a whole number from 1 to 16, got "99"/,
    ],
    [{ HISTORY_SCAN_CAP: "500000" }, /HISTORY_SCAN_CAP must be a whole number from 1 to 100000/],
    [{ HISTORY_COPY_MINUTES: "soon" }, /HISTORY_COPY_MINUTES must be a whole number from 1 to 10080/],
    [{ SESSION_TTL_SECONDS: "abc" }, /SESSION_TTL_SECONDS must be a positive whole number/],
    [{ SESSION_TTL_SECONDS: "30" }, /SESSION_TTL_SECONDS must be more than 60/],
    [{ TRUST_PROXY: "yes" }, /TRUST_PROXY must be 1 or 0/],
    [{ PUBLIC_ORIGIN: "https://console.example.com/path" }, /PUBLIC_ORIGIN entries must be bare origins/],
    [{ SIGN_IN_RATE_LIMIT_PER_MINUTE: "0" }, /SIGN_IN_RATE_LIMIT_PER_MINUTE must be a positive/],
    [{ REDIS_URL: "not a url" }, /REDIS_URL must be a URL like redis:\/\/.*cannot be parsed/],
    [{ REDIS_URL: "http://cache.internal:6379" }, /REDIS_URL must be a URL like redis:\/\//],
    [{ REDIS_URL: "redis://cache.internal:6379/sessions" }, /REDIS_URL may end with a database number/],
    [
      { DATABASE_URL: "postgres://user:s3cret@[bad" },
      /^DATABASE_URL must be a URL like postgres:\/\/.*cannot be parsed\.$/,
    ],
    [{ DATABASE_URL: "mysql://db.internal/watch" }, /DATABASE_URL must be a PostgreSQL URL/],
    [{ WATCH_SECRET: "short" }, /WATCH_SECRET must be at least 32 characters \(it has 5\)/],
    [{ WATCH_SECRET_PREVIOUS: GOOD }, /WATCH_SECRET_PREVIOUS is set but WATCH_SECRET is not/],
    [{ WATCH_BACKFILL: "lots" }, /WATCH_BACKFILL must be "<logs>,<age>" like "10000,7d"/],
    [{ WATCH_INTERVAL_SECONDS: "0" }, /WATCH_INTERVAL_SECONDS must be a whole number from 1 to 86400/],
    [{ WATCH_IN_CONSOLE: "maybe" }, /WATCH_IN_CONSOLE must be 1 or 0/],
    [{ ALERTS_ALLOW_PRIVATE: "sure" }, /ALERTS_ALLOW_PRIVATE must be 1 or 0/],
    [{ SMTP_URL: "https://mail.example" }, /^SMTP_URL must be a URL like smtp:\/\/.*not one\.$/],
    [
      { ALERTS_PAGERDUTY_EVENTS_URL: "ftp://proxy:s3cret@events.example/v2/enqueue" },
      new RegExp(
        "^ALERTS_PAGERDUTY_EVENTS_URL must be an http\\(s\\) URL like https://events\\.eu\\.pagerduty\\.com/v2/enqueue\\. " +
          "Fix it or unset it to use each destination's region\\.$",
      ),
    ],
    [{ ALERTS_ATTEMPTS: "20" }, /ALERTS_ATTEMPTS must be a whole number from 1 to 10/],
    [{ ALERTS_MAX_DESTINATIONS: "0" }, /ALERTS_MAX_DESTINATIONS must be a whole number from 1 to 1000/],
    [{ SMTP_ALLOW_PLAINTEXT_AUTH: "please" }, /SMTP_ALLOW_PLAINTEXT_AUTH must be 1 or 0/],
    [{ METRICS_TOKEN: "short" }, /METRICS_TOKEN must be at least 16 characters without spaces \(it has 5\)/],
    [{ METRICS_TOKEN: "a token with spaces inside" }, /METRICS_TOKEN must be at least 16 characters/],
  ])("refuses %j, naming the variable", (vars, message) => {
    withEnv(vars);
    expect(() => validateServerConfig()).toThrow(message);
  });

  it("accepts a sound configuration and orders secrets newest first, without duplicates", () => {
    const older = "an-older-session-secret-32-chars!!!";
    withEnv({
      SESSION_SECRET: GOOD,
      SESSION_SECRET_PREVIOUS: ` ${older} , ${GOOD}`,
      PUBLIC_ORIGIN: "https://a.example, http://127.0.0.1:3000",
      HUB_BASE_URL: "http://127.0.0.1:4010///",
    });
    expect(validateServerConfig().warnings).toEqual([]);
    const config = serverConfig();
    expect(config.sessionSecrets).toEqual([GOOD, older]);
    expect(config.publicOrigins).toEqual(["https://a.example", "http://127.0.0.1:3000"]);
    expect(config.hubBaseUrl).toBe("http://127.0.0.1:4010");
  });

  it("warns at start when ALERTS_ALLOW_PRIVATE=1, and never repeats an SMTP_URL it refuses", () => {
    withEnv({ ALERTS_ALLOW_PRIVATE: "1" });
    expect(validateServerConfig().warnings).toEqual([
      expect.stringMatching(/^ALERTS_ALLOW_PRIVATE=1: alert destinations may use http:\/\//),
    ]);
    withEnv({ SMTP_URL: "smtp://user:hunter2@[bad" });
    expect(() => validateServerConfig()).toThrow(/SMTP_URL/);
    expect(() => validateServerConfig()).not.toThrow(/hunter2/);
  });

  it("warns at start when SMTP_ALLOW_PLAINTEXT_AUTH=1 lets smtp:// credentials go in clear", () => {
    withEnv({ SMTP_URL: "smtp://alerts:pw@mail.example:587", SMTP_ALLOW_PLAINTEXT_AUTH: "1" });
    expect(validateServerConfig().warnings).toEqual([
      expect.stringMatching(
        /^SMTP_ALLOW_PLAINTEXT_AUTH=1: SMTP_URL's user name and password are sent in clear/,
      ),
    ]);
    expect(serverConfig().alerts.smtpAllowPlaintextAuth).toBe(true);
  });

  it("allows the sandbox's inbox only when the launcher started the sandbox (HUB_SANDBOX=1), at its origin", () => {
    withEnv({ HUB_BASE_URL: "http://127.0.0.1:4010/" });
    expect(serverConfig().alerts.sandboxInbox).toBeNull();
    withEnv({ HUB_SANDBOX: "1" });
    expect(serverConfig().alerts.sandboxInbox).toBe("http://127.0.0.1:4010/_sandbox/inbox");
    expect(serverConfig().alerts.maxDestinations).toBe(20);
  });

  it("never repeats a REDIS_URL it refuses (it may carry a password), and keeps a sound one", () => {
    withEnv({ REDIS_URL: "redis://:hunter2-secret@cache internal:6379" });
    expect(() => validateServerConfig()).toThrow(/REDIS_URL/);
    expect(() => validateServerConfig()).not.toThrow(/hunter2/);
    withEnv({ REDIS_URL: "rediss://:pw@cache.internal:6380/2" });
    validateServerConfig();
    expect(serverConfig().redisUrl).toBe("rediss://:pw@cache.internal:6380/2");
    withEnv({ REDIS_URL: "" });
    expect(serverConfig().redisUrl).toBeNull();
  });

  it("never repeats a METRICS_TOKEN it refuses, and keeps a sound one (unset: none)", () => {
    withEnv({ METRICS_TOKEN: "tiny-secret" });
    expect(() => validateServerConfig()).toThrow(/METRICS_TOKEN/);
    expect(() => validateServerConfig()).not.toThrow(/tiny-secret/);
    withEnv({ METRICS_TOKEN: " a-scrape-token-of-24-chars " });
    expect(serverConfig().metricsToken).toBe("a-scrape-token-of-24-chars");
    withEnv({ METRICS_TOKEN: "" });
    expect(serverConfig().metricsToken).toBeNull();
  });

  it("warns when production runs with SESSION_COOKIE_INSECURE=1", () => {
    withEnv({ NODE_ENV: "production", SESSION_COOKIE_INSECURE: "1" });
    expect(validateServerConfig().warnings.join()).toMatch(/SESSION_COOKIE_INSECURE/);
    expect(serverConfig().cookieSecure).toBe(false);
  });
});

describe("the watch's configuration", () => {
  it("defaults to the embedded database, deriving its key from SESSION_SECRET, and reads the backfill horizon", () => {
    withEnv({ WATCH_DB: "", WATCH_BACKFILL: "500, 12h" });
    const { watch } = serverConfig();
    expect(watch).toMatchObject({
      databaseUrl: null,
      sqlitePath: ".data/watch.sqlite",
      secrets: [],
      inConsole: true,
      intervalSeconds: 60,
      backfillCount: 500,
      backfillAgeMs: 12 * 3_600_000,
      retentionDays: 30,
    });
  });
});
