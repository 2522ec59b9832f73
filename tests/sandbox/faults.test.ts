/**
 * Fault injection: latency, 500/503, 429 with Retry-After and garbled 200s on the spec
 * routes only, switched by SANDBOX_FAULT_* at start and by /_sandbox/faults at run time; a
 * faulted request changes nothing; the same seed gives the same sequence.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { webhookLogPageSchema, webhookSchema } from "../../lib/domain/hub-schemas";
import { optionsFromEnv } from "../../lib/sandbox/config";
import {
  describeFaults,
  faultSettingsFromEnv,
  faultSettingsSchema,
  faultsActive,
  NO_FAULTS,
  parseFaultSettings,
  type FaultSettingsInput,
} from "../../lib/sandbox/faults";
import { receiverUrl } from "../../lib/sandbox/receivers";
import { requestJson, type HubApi } from "./support/clients";
import { spawnSandbox } from "./support/child";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

/** A state-changing admin call is JSON even without a body (lib/sandbox/auth.ts). */
const JSON_TYPE = { "content-type": "application/json" };

/** Every setting at its default: all faults off. */
const OFF = {
  latencyMs: { min: 0, max: 0 },
  errorRate: 0,
  rateLimitRate: 0,
  garbleRate: 0,
  retryAfterSeconds: 2,
  pathPrefix: "/v1/",
  seed: 1,
};

describe("fault settings", () => {
  it("are all off by default", () => {
    expect(NO_FAULTS).toEqual(OFF);
    expect(faultsActive(NO_FAULTS)).toBe(false);
    expect(describeFaults(NO_FAULTS)).toBe("off");
  });

  it("take a latency as milliseconds or a min-max range", () => {
    expect(parseFaultSettings({ latencyMs: 250 }).latencyMs).toEqual({ min: 250, max: 250 });
    expect(parseFaultSettings({ latencyMs: "100-300" }).latencyMs).toEqual({ min: 100, max: 300 });
    expect(parseFaultSettings({ latencyMs: " 40 " }).latencyMs).toEqual({ min: 40, max: 40 });
    for (const latencyMs of ["300-100", "abc", 60_001, -1, "1.5", "10-"]) {
      expect(faultSettingsSchema.safeParse({ latencyMs }).success, String(latencyMs)).toBe(false);
    }
  });

  it("refuse rates outside 0..1, rates adding up to more than 1, and paths outside /v1/", () => {
    for (const bad of [
      { errorRate: 1.5 },
      { garbleRate: -0.1 },
      { errorRate: "often" },
      { errorRate: 0.6, garbleRate: 0.5 },
      { pathPrefix: "/_sandbox/" },
      { retryAfterSeconds: 0 },
      { sometimes: true },
    ]) {
      expect(faultSettingsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(parseFaultSettings({ errorRate: 0.5, rateLimitRate: 0.25, garbleRate: 0.25 }).garbleRate).toBe(
      0.25,
    );
    expect(() => parseFaultSettings({ errorRate: 0.7, rateLimitRate: 0.7 })).toThrow(/add up to more than 1/);
  });

  it("are read from SANDBOX_FAULT_* (empty = unset), and a bad value is named by its variable", () => {
    const { settings } = faultSettingsFromEnv({
      SANDBOX_FAULT_LATENCY_MS: "200-800",
      SANDBOX_FAULT_ERROR_RATE: "0.1",
      SANDBOX_FAULT_RATE_LIMIT_RATE: "0.05",
      SANDBOX_FAULT_GARBLE_RATE: "",
      SANDBOX_FAULT_RETRY_AFTER_S: "7",
      SANDBOX_FAULT_PATH_PREFIX: "/v1/organization/",
      SANDBOX_FAULT_SEED: "42",
    });
    expect(settings).toEqual({
      ...OFF,
      latencyMs: { min: 200, max: 800 },
      errorRate: 0.1,
      rateLimitRate: 0.05,
      retryAfterSeconds: 7,
      pathPrefix: "/v1/organization/",
      seed: 42,
    });
    expect(describeFaults(settings!)).toBe(
      "latency 200-800 ms, error rate 0.1 (500/503), 429 rate 0.05 (Retry-After 7) on /v1/organization/* (seed 42)",
    );
    expect(() =>
      optionsFromEnv({ SANDBOX_PORT: "x", SANDBOX_FAULT_ERROR_RATE: "2", SANDBOX_FAULT_LATENCY_MS: "soon" }),
    ).toThrow(
      /SANDBOX_PORT: .*\n- SANDBOX_FAULT_LATENCY_MS: must be milliseconds.*\n- SANDBOX_FAULT_ERROR_RATE: must be a number from 0 to 1/,
    );
    expect(optionsFromEnv({}).faults).toEqual(NO_FAULTS);
  });
});

describe("faults at run time (/_sandbox/faults)", () => {
  let t: TestSandbox;
  let app: Awaited<ReturnType<TestSandbox["admin"]["application"]>>;
  let api: HubApi;
  let webhookId: string;
  const message = () => ({ from: app.channel.id, to: "5511999990000", content: { text: "fault test" } });
  const faultsUrl = () => `${t.sandbox.url}/_sandbox/faults`;
  const putFaults = (body: FaultSettingsInput | Record<string, unknown>) =>
    requestJson(faultsUrl(), { method: "PUT", body });

  beforeAll(async () => {
    t = await startTestSandbox();
    app = await t.admin.application("whatsapp");
    api = t.api(app.apiKey);
    webhookId = (await t.admin.createWebhook(app.id, { endpoint: receiverUrl(t.sandbox.url, "ok") })).id;
    await api.send("whatsapp", message());
    await t.sandbox.whenIdle();
  });

  afterEach(async () => {
    await requestJson(faultsUrl(), { method: "DELETE", headers: JSON_TYPE });
  });

  afterAll(() => t.sandbox.close({ graceMs: 0 }));

  it("GET shows the settings (as PUT takes them), whether any is on, and what was injected", async () => {
    const off = await requestJson(faultsUrl());
    expect(off.status).toBe(200);
    expect(off.body).toEqual({
      active: false,
      ...OFF,
      latencyMs: 0,
      injected: { requests: 0, delayed: 0, errors: 0, rateLimited: 0, garbled: 0 },
    });
    const on = await putFaults({ latencyMs: "5-10", errorRate: 0.5 });
    expect(on.body).toMatchObject({ active: true, latencyMs: "5-10", errorRate: 0.5 });
    expect(t.logLines.at(-1)).toBe(
      "sandbox: fault injection latency 5-10 ms, error rate 0.5 (500/503) on /v1/*",
    );
  });

  it("errorRate 1: every spec route answers 500 or 503 with a JSON error, before authentication", async () => {
    await putFaults({ errorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const answer = await api.getWebhook(webhookId);
      expect([500, 503]).toContain(answer.status);
      expect(answer.headers.get("x-sandbox-fault")).toBe("error");
      expect(answer.body).toMatchObject({
        error: {
          code: expect.stringMatching(/internal_error|service_unavailable/),
          message: expect.stringContaining("Injected fault"),
        },
      });
      statuses.add(answer.status);
    }
    expect(statuses).toEqual(new Set([500, 503]));
    expect((await api.listLogs(webhookId)).status).toBeGreaterThanOrEqual(500);
    expect((await t.api(undefined).getWebhook(webhookId)).status).toBeGreaterThanOrEqual(500);
    expect((await requestJson(faultsUrl())).body).toMatchObject({ injected: { requests: 10, errors: 10 } });
  });

  it("never touches the admin routes, health or the receivers, and deliveries still happen", async () => {
    await putFaults({ errorRate: 1, latencyMs: 300 });
    const started = Date.now();
    expect((await requestJson(`${t.sandbox.url}/_sandbox/health`)).status).toBe(200);
    expect((await t.admin.stats()).messages).toBeGreaterThan(0);
    expect((await requestJson(receiverUrl(t.sandbox.url, "ok"), { method: "POST", body: {} })).status).toBe(
      200,
    );
    expect(Date.now() - started).toBeLessThan(300);
    // A message queued before the faults were switched on is delivered to its receiver as usual.
    await putFaults({});
    const before = await t.admin.stats();
    await api.send("whatsapp", message());
    await putFaults({ errorRate: 1 });
    await t.sandbox.whenIdle();
    const after = await t.admin.stats();
    expect(after.logs).toBe(before.logs + 1);
    expect((await t.admin.listWebhooks(app.id)).data[0]!.numberOfErrors).toBe(0);
  });

  it("a faulted send stores nothing and queues nothing (error, 429 and garble alike)", async () => {
    const before = await t.admin.stats();
    for (const settings of [{ errorRate: 1 }, { rateLimitRate: 1 }, { garbleRate: 1 }]) {
      await putFaults(settings);
      const answer = await api.send("whatsapp", message());
      expect(answer.status, JSON.stringify(settings)).not.toBe(202);
    }
    await t.sandbox.whenIdle();
    expect(await t.admin.stats()).toEqual(before);
  });

  it("rateLimitRate 1: 429 with Retry-After: retryAfterSeconds", async () => {
    await putFaults({ rateLimitRate: 1, retryAfterSeconds: 17 });
    const answer = await api.listLogs(webhookId);
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("17");
    expect(answer.body).toMatchObject({ error: { code: "rate_limited" } });
  });

  it("garbleRate 1: 200s that are HTML, cut-off JSON, then JSON of the wrong shape, in turn; none passes the spec's schemas", async () => {
    await putFaults({ garbleRate: 1 });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${t.sandbox.url}/v1/organization/webhook/${webhookId}`, {
        headers: { "x-api-key": app.apiKey },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-sandbox-fault")).toBe("garble");
      seen.push(response.headers.get("x-sandbox-garble")!);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        continue; // not JSON: a client must refuse it
      }
      expect(webhookSchema.safeParse(json).success).toBe(false);
      expect(webhookLogPageSchema.safeParse(json).success).toBe(false);
      expect(Array.isArray(json)).toBe(true); // no object answer (of send either) can accept it
    }
    expect(seen).toEqual(["html", "cut_json", "wrong_shape", "html", "cut_json", "wrong_shape"]);
  });

  it("latency delays the answer, which is otherwise normal", async () => {
    await putFaults({ latencyMs: 250 });
    const started = Date.now();
    const answer = await api.getWebhook(webhookId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(answer.status).toBe(200);
    expect(webhookSchema.safeParse(answer.body).success).toBe(true);
    expect((await requestJson(faultsUrl())).body).toMatchObject({
      injected: { requests: 1, delayed: 1, errors: 0 },
    });
  });

  it("a caller that leaves during the latency is dropped: its send is never handled", async () => {
    await putFaults({ latencyMs: 400 });
    const before = await t.admin.stats();
    const controller = new AbortController();
    const abandoned = fetch(`${t.sandbox.url}/v1/communication/whatsapp/message`, {
      method: "POST",
      headers: { "x-api-key": app.apiKey, "content-type": "application/json" },
      body: JSON.stringify(message()),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 100);
    expect(await abandoned).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await t.admin.stats()).messages).toBe(before.messages);
    // One that waits is handled.
    expect((await api.send("whatsapp", message())).status).toBe(202);
    expect((await t.admin.stats()).messages).toBe(before.messages + 1);
    await t.sandbox.whenIdle();
  });

  it("pathPrefix limits the faults to the paths it starts", async () => {
    await putFaults({ errorRate: 1, pathPrefix: `/v1/organization/webhook/${webhookId}/webhook-log` });
    expect((await api.listLogs(webhookId)).status).toBeGreaterThanOrEqual(500);
    expect((await api.getWebhook(webhookId)).status).toBe(200);
    expect((await api.send("whatsapp", message())).status).toBe(202);
    await t.sandbox.whenIdle();
  });

  it("the same seed gives the same sequence; rates are shares of one roll", async () => {
    const run = async () => {
      await putFaults({ errorRate: 0.3, rateLimitRate: 0.2, garbleRate: 0.1, seed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await api.getWebhook(webhookId)).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    // Loosely (40 draws): 30% errors, 20% 429s, the other 50% 200s (10% of them garbled).
    const errors = first.filter((s) => s >= 500).length;
    const limited = first.filter((s) => s === 429).length;
    expect(errors).toBeGreaterThan(4);
    expect(limited).toBeGreaterThan(2);
    expect(errors + limited + first.filter((s) => s === 200).length).toBe(40);
    const state = (
      await requestJson<{ injected: { requests: number; errors: number; rateLimited: number } }>(faultsUrl())
    ).body;
    expect(state.injected.requests).toBe(40);
    expect(state.injected.errors).toBe(errors);
    expect(state.injected.rateLimited).toBe(limited);
  });

  it("PUT refuses bad settings with 400 invalid_faults naming the field, and keeps the old ones", async () => {
    await putFaults({ errorRate: 0.25 });
    for (const body of [
      { errorRate: 2 },
      { errorRate: 0.8, garbleRate: 0.8 },
      { pathPrefix: "/_sandbox/" },
      { latencyMs: "slow" },
      { extra: 1 },
    ]) {
      const answer = await putFaults(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({
        error: { code: "invalid_faults", issues: [expect.any(Object)] },
      });
    }
    expect((await putFaults({ errorRate: 2 })).body).toMatchObject({
      error: { message: expect.stringContaining("errorRate: must be a number from 0 to 1") },
    });
    expect((await requestJson(faultsUrl())).body).toMatchObject({ errorRate: 0.25 });
  });

  it("PUT replaces every setting; DELETE switches all off", async () => {
    await putFaults({ errorRate: 1, latencyMs: 50 });
    expect((await putFaults({ rateLimitRate: 1 })).body).toMatchObject({
      errorRate: 0,
      latencyMs: 0,
      rateLimitRate: 1,
    });
    const off = await requestJson(faultsUrl(), { method: "DELETE", headers: JSON_TYPE });
    expect(off.body).toMatchObject({ active: false, rateLimitRate: 0 });
    expect((await api.getWebhook(webhookId)).status).toBe(200);
  });

  it("a stop does not wait for a delayed request", async () => {
    const doomed = await startTestSandbox({ faults: { latencyMs: 30_000 } });
    const pending = fetch(`${doomed.sandbox.url}/v1/organization/webhook/${webhookId}`).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await doomed.sandbox.close({ graceMs: 0 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe("faults switched by configuration", () => {
  it("startSandbox({ faults }) is faulty from the first request", async () => {
    const t = await startTestSandbox({ faults: { rateLimitRate: 1, retryAfterSeconds: 3 } });
    try {
      expect(t.sandbox.faults.active).toBe(true);
      const answer = await t
        .api("some-key-0123456789abcdef")
        .getWebhook("9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a01");
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("3");
    } finally {
      await t.sandbox.close({ graceMs: 0 });
    }
  });

  it("the admin route is guarded like the others", async () => {
    const t = await startTestSandbox({ adminToken: "faults-admin-token-0123456789" });
    try {
      expect(
        (await requestJson(`${t.sandbox.url}/_sandbox/faults`, { method: "PUT", body: { errorRate: 1 } }))
          .status,
      ).toBe(401);
      expect(t.sandbox.faults.active).toBe(false);
    } finally {
      await t.sandbox.close({ graceMs: 0 });
    }
  });

  it("npm run sandbox with SANDBOX_FAULT_* prints the active faults in its banner and applies them", async () => {
    const child = await spawnSandbox({
      SANDBOX_DB: ":memory:",
      SANDBOX_FAULT_ERROR_RATE: "1",
      SANDBOX_FAULT_LATENCY_MS: "20-40",
    });
    try {
      expect(child.output()).toContain(
        "FAULT INJECTION ON: latency 20-40 ms, error rate 1 (500/503) on /v1/*",
      );
      const answer = await requestJson(
        `${child.url}/v1/organization/webhook/9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a01`,
      );
      expect([500, 503]).toContain(answer.status);
      expect(
        (await requestJson(`${child.url}/_sandbox/faults`, { method: "DELETE", headers: JSON_TYPE })).body,
      ).toMatchObject({
        active: false,
      });
      expect(
        (await requestJson(`${child.url}/v1/organization/webhook/9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a01`))
          .status,
      ).toBe(401);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });
});
