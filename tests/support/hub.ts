/**
 * TEST ONLY. Talking to the sandbox's admin routes (to make applications, channels and webhooks)
 * and signing in to a console instance, for the e2e specs that start their own servers and for
 * the benchmark.
 */

export interface CreatedApplication {
  id: string;
  name: string;
  apiKey: string;
}

export interface CreatedWebhook {
  id: string;
  endpoint: string;
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} → HTTP ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export function createApplication(sandboxUrl: string, name: string): Promise<CreatedApplication> {
  return postJson(`${sandboxUrl}/_sandbox/applications`, { name });
}

export function createChannel(
  sandboxUrl: string,
  applicationId: string,
  kind: string,
): Promise<{ id: string; kind: string }> {
  return postJson(`${sandboxUrl}/_sandbox/applications/${applicationId}/channels`, { kind });
}

export function createWebhook(
  sandboxUrl: string,
  applicationId: string,
  endpoint: string,
): Promise<CreatedWebhook> {
  return postJson(`${sandboxUrl}/_sandbox/applications/${applicationId}/webhooks`, {
    endpoint,
    eventType: "Message",
    active: true,
  });
}

/** The sandbox's demo application: its key and webhooks (GET /_sandbox/demo). */
export async function demo(sandboxUrl: string): Promise<{ apiKey: string; webhookIds: string[] }> {
  const response = await fetch(`${sandboxUrl}/_sandbox/demo`);
  if (!response.ok) throw new Error(`GET /_sandbox/demo → HTTP ${response.status}`);
  const body = (await response.json()) as { apiKey?: unknown; webhooks?: Array<{ id?: unknown }> };
  if (typeof body.apiKey !== "string" || !Array.isArray(body.webhooks))
    throw new Error("GET /_sandbox/demo: unexpected shape");
  return { apiKey: body.apiKey, webhookIds: body.webhooks.map((w) => String(w.id)) };
}

/**
 * Signs in to a console instance with an API key (`POST /api/session`, same-origin, JSON) and
 * returns the session cookie as `name=value`, ready for a `Cookie` header.
 */
export async function signIn(consoleUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: consoleUrl },
    body: JSON.stringify({ apiKey }),
    redirect: "manual",
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`sign-in on ${consoleUrl} → HTTP ${response.status}: ${text.slice(0, 300)}`);
  const cookie = sessionCookie(response.headers.getSetCookie());
  if (!cookie) throw new Error(`sign-in on ${consoleUrl} set no cookie`);
  return cookie;
}

/** `name=value` of the first cookie set with a value (attributes dropped). */
export function sessionCookie(setCookies: readonly string[]): string | null {
  for (const header of setCookies) {
    const pair = header.split(";")[0]?.trim() ?? "";
    const eq = pair.indexOf("=");
    if (eq > 0 && eq < pair.length - 1) return pair;
  }
  return null;
}
