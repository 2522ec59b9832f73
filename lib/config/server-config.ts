import "server-only";

/**
 * The console's configuration, read from the environment when first asked for (so `next build`
 * works without it). See the configuration table in README.md.
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
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}". Fix it or unset it to use ${fallback}.`);
  }
  return value;
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
  return url.toString().replace(/\/+$/, "");
}

let cached: ServerConfig | undefined;

export function serverConfig(): ServerConfig {
  cached ??= {
    hubBaseUrl: readHubBaseUrl(),
    sandboxMode: process.env.HUB_SANDBOX === "1",
    hubTimeoutMs: positiveInt("HUB_TIMEOUT_MS", 10_000),
    sessionTtlSeconds: positiveInt("SESSION_TTL_SECONDS", 28_800),
    sandboxAdminToken: process.env.SANDBOX_ADMIN_TOKEN?.trim() || null,
  };
  return cached;
}

/** For tests that change the environment between cases. */
export function resetServerConfigForTests(): void {
  cached = undefined;
}
