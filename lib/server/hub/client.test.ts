/**
 * The hub client's fault mapping, against a scripted upstream on 127.0.0.1 (fake-upstream.ts),
 * and its happy paths against the real sandbox (started in-process on :memory:).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { appErrorOf as failure } from "@/tests/support/app-error-of";
import {
  MAX_UPSTREAM_BODY_BYTES,
  fetchSandboxDemo,
  getWebhook,
  listWebhookLogs,
  retryWebhookLog,
  sendMessage,
} from "@/lib/server/hub/client";
import { fakeLogPage, fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { POLL_REUSE_MS } from "@/lib/domain/query-keys";
import {
  MAX_SHARED_READS,
  forgetSharedReadsForTests,
  sharedRead,
  sharedReadCountForTests,
} from "@/lib/server/hub/shared-reads";
import { channelKindParamSchema, webhookIdSchema, type WebhookId } from "@/lib/server/hub/path-params";

const KEY = "client-test-key-abcdef123456";
const WEBHOOK = webhookIdSchema.parse("0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d");
const WHATSAPP = channelKindParamSchema.parse("whatsapp");
const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";
const call = { apiKey: KEY };

describe("hub client against a scripted upstream", () => {
  const fake = fakeUpstreamPerTest({ HUB_TIMEOUT_MS: "500" });
  let upstream: FakeUpstream;
  // Node loads its fetch on the first call: not inside a test's 0.5 s hub timeout.
  beforeAll(async () => {
    await fetch("data:,");
  });
  beforeEach(() => {
    upstream = fake.current;
  });

  it("sends x-api-key and accept, and keeps fields the spec does not show", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
    const webhook = await getWebhook(call, WEBHOOK);
    expect(webhook).toEqual(fakeWebhook());
    expect(webhook.secretHint).toBe("x");
    expect(upstream.requests[0]!.headers["x-api-key"]).toBe(KEY);
    expect(upstream.requests[0]!.headers.accept).toBe("application/json");
  });

  it("lists logs with offset, limit and status, unknown fields kept", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const page = await listWebhookLogs(call, WEBHOOK, { offset: 20, limit: 10, status: "Failed" });
    expect(page.data[0]!.attempt).toBe(1);
    expect(upstream.requests[0]!.url).toBe(
      `/v1/organization/webhook/${WEBHOOK}/webhook-log?offset=20&limit=10&status=Failed`,
    );
  });

  it("sends a message as JSON; the answer is kept and its messageId found (or null, for an empty body)", async () => {
    upstream.handle = (_req, res) =>
      sendJson(res, 200, { id: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", extra: [1] });
    const result = await sendMessage(call, WHATSAPP, { from: CHANNEL, to: "55", content: { text: "hi" } });
    expect(result).toEqual({
      messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c",
      answer: { id: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", extra: [1] },
    });
    expect(upstream.requests[0]!.headers["content-type"]).toBe("application/json");
    upstream.handle = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    expect(await sendMessage(call, WHATSAPP, { from: CHANNEL, to: "55", content: { text: "hi" } })).toEqual({
      messageId: null,
      answer: null,
    });
  });

  it("a connection the hub drops unanswered is 502 upstream_unreachable, and the call is not repeated", async () => {
    let handled = 0;
    upstream.handle = (req) => {
      handled += 1;
      req.socket.destroy();
    };
    expect((await failure(() => getWebhook(call, WEBHOOK))).code).toBe("upstream_unreachable");
    const error = await failure(() =>
      sendMessage(call, WHATSAPP, { from: CHANNEL, to: "55", content: { text: "hi" } }),
    );
    expect(error.code).toBe("upstream_unreachable");
    expect(handled).toBe(2);
  });

  it.each([
    [401, "unauthorized", 401],
    [403, "forbidden", 403],
    [404, "not_found", 404],
    [400, "bad_request", 400],
    [422, "bad_request", 400],
    [500, "upstream_error", 502],
    [503, "upstream_error", 502],
    [418, "upstream_error", 502],
  ])("maps upstream %i to %s (%i)", async (status, code, ours) => {
    upstream.handle = (_req, res) => sendJson(res, status, { message: "no" });
    const error = await failure(() => getWebhook(call, WEBHOOK));
    expect(error.code).toBe(code);
    expect(error.status).toBe(ours);
  });

  it("maps 429 to rate_limited with Retry-After in seconds, from seconds or an HTTP date, bounded", async () => {
    const retryAfter = async (header?: string) => {
      upstream.handle = (_req, res) =>
        sendJson(res, 429, {}, header === undefined ? {} : { "retry-after": header });
      const error = await failure(() => getWebhook(call, WEBHOOK));
      expect(error.status).toBe(429);
      return error.retryAfter;
    };
    expect(await retryAfter("12")).toBe(12);
    expect(await retryAfter("0.2")).toBe(1);
    expect(await retryAfter(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThanOrEqual(29);
    expect(await retryAfter("999999")).toBe(3600);
    expect(await retryAfter("soon")).toBe(5);
    expect(await retryAfter()).toBe(5);
  });

  it("does not follow redirects (a 3xx is an unexpected answer, 502)", async () => {
    upstream.handle = (_req, res) => {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
      res.end();
    };
    const error = await failure(() => getWebhook(call, WEBHOOK));
    expect(error.status).toBe(502);
    expect(upstream.requests).toHaveLength(1);
  });

  it("times out after HUB_TIMEOUT_MS with 504, also when the body stalls after the headers", async () => {
    upstream.handle = () => {};
    let started = Date.now();
    let error = await failure(() => getWebhook(call, WEBHOOK));
    expect(error.code).toBe("upstream_timeout");
    expect(error.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1500);

    upstream.handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":');
    };
    started = Date.now();
    error = await failure(() => getWebhook(call, WEBHOOK));
    expect(error.code).toBe("upstream_timeout");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("answers 502 for garbage, empty and schema-violating bodies", async () => {
    for (const body of [
      "<html>",
      "",
      "null",
      "[]",
      '{"id":"not-a-uuid"}',
      JSON.stringify({ ...fakeWebhook(), active: "yes" }),
    ]) {
      upstream.handle = (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(body);
      };
      const error = await failure(() => getWebhook(call, WEBHOOK));
      expect(error.status, body).toBe(502);
      expect(error.code).toBe("upstream_invalid");
    }
  });

  it("refuses an oversized answer, declared or streamed, without buffering it all", async () => {
    // Megabytes to stream: more time than the other cases' 0.5 s on a loaded machine.
    stubEnv({ HUB_TIMEOUT_MS: "10000" });
    upstream.handle = (_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(MAX_UPSTREAM_BODY_BYTES + 1),
      });
      res.write("[");
    };
    expect((await failure(() => getWebhook(call, WEBHOOK))).message).toMatch(/larger than 8 MiB/);

    let written = 0;
    upstream.handle = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (written < MAX_UPSTREAM_BODY_BYTES * 4 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    };
    expect((await failure(() => getWebhook(call, WEBHOOK))).message).toMatch(/larger than 8 MiB/);
    expect(written).toBeLessThan(MAX_UPSTREAM_BODY_BYTES * 4);
  });

  it("cancels the upstream call when the caller's signal aborts", async () => {
    upstream.handle = () => {};
    const controller = new AbortController();
    const arrived = upstream.nextRequest();
    const pending = failure(() => getWebhook({ apiKey: KEY, signal: controller.signal }, WEBHOOK));
    const recorded = await arrived;
    controller.abort();
    const error = await pending;
    expect(error.code).not.toBe("upstream_timeout");
    await vi.waitFor(() => expect(recorded.aborted).toBe(true), { timeout: 2000 });
  });

  it("is 502 when the hub cannot be reached or is not configured", async () => {
    stubEnv({ HUB_BASE_URL: "http://127.0.0.1:1" });
    expect((await failure(() => getWebhook(call, WEBHOOK))).code).toBe("upstream_unreachable");
    stubEnv({ HUB_BASE_URL: "" });
    expect((await failure(() => getWebhook(call, WEBHOOK))).message).toMatch(/HUB_BASE_URL is not set/);
  });

  it("takes path segments only as parsed ids and channel kinds, which refuse another path", async () => {
    for (const [schema, value] of [
      [webhookIdSchema, "../admin"],
      [webhookIdSchema, `${WEBHOOK}/../x`],
      [channelKindParamSchema, "../../v1"],
    ] as const) {
      expect(schema.safeParse(value).success, value).toBe(false);
    }
    // @ts-expect-error an unparsed string is not a WebhookId
    const unchecked = () => getWebhook(call, "../admin");
    void unchecked;
    expect(upstream.requests).toHaveLength(0);
  });

  it("keeps the key out of error messages, even when the hub echoes it", async () => {
    upstream.handle = (_req, res) => sendJson(res, 400, { error: { message: `bad key ${KEY}\u0000 here` } });
    const error = await failure(() => getWebhook(call, WEBHOOK));
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain("[key]");
    expect(error.message).not.toContain("\u0000");
  });

  it("retry is not supported yet (501), and nothing is sent", async () => {
    const error = await failure(() => retryWebhookLog(call, WEBHOOK, WEBHOOK));
    expect(error.code).toBe("not_supported");
    expect(error.status).toBe(501);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("hub client against the sandbox", () => {
  type Sandbox = Awaited<ReturnType<typeof import("@/lib/sandbox/server").startSandbox>>;
  let sandbox: Sandbox;
  let demoKey: string;
  let webhookId: WebhookId;
  let channel: { id: string; kind: ReturnType<typeof channelKindParamSchema.parse> };

  beforeAll(async () => {
    const { startSandbox } = await import("@/lib/sandbox/server");
    sandbox = await startSandbox({
      port: 0,
      dbPath: ":memory:",
      seed: "demo",
      deliveryTimeoutMs: 300,
      log: () => {},
    });
    const demo = sandbox.demo()!;
    demoKey = demo.apiKey;
    webhookId = webhookIdSchema.parse(demo.webhooks[0]!.id);
    channel = { id: demo.channels[0]!.id, kind: channelKindParamSchema.parse(demo.channels[0]!.kind) };
  });
  afterAll(async () => {
    await sandbox.close({ graceMs: 0 });
  });
  beforeEach(() => {
    stubEnv({ HUB_BASE_URL: sandbox.url });
  });
  afterEach(() => {
    restoreEnv();
  });

  it("reads the demo key from the admin route, then the webhook and its logs", async () => {
    expect((await fetchSandboxDemo()).apiKey).toBe(demoKey);
    const webhook = await getWebhook({ apiKey: demoKey }, webhookId);
    expect(webhook.id).toBe(webhookId);
    const page = await listWebhookLogs({ apiKey: demoKey }, webhookId, {
      offset: 0,
      limit: 5,
      status: "Failed",
    });
    expect(page.data.length).toBeLessThanOrEqual(5);
    expect(page.data.every((log) => log.status === "Failed")).toBe(true);
    expect(page.pagination.limit).toBe(5);
  });

  it("sends a message and gets a message id back", async () => {
    const result = await sendMessage({ apiKey: demoKey }, channel.kind, {
      from: channel.id,
      to: "5511999990000",
      content: { text: "client test" },
    });
    expect(result.messageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("maps the sandbox's 401 (wrong key) and 404 (unknown webhook, foreign channel)", async () => {
    expect((await failure(() => getWebhook({ apiKey: "mh_wrong_key_000000000000" }, webhookId))).code).toBe(
      "unauthorized",
    );
    expect(
      (
        await failure(() =>
          getWebhook({ apiKey: demoKey }, webhookIdSchema.parse("00000000-0000-4000-8000-000000000000")),
        )
      ).code,
    ).toBe("not_found");
    const foreign = { from: "00000000-0000-4000-8000-000000000001", to: "1", content: { text: "x" } };
    expect((await failure(() => sendMessage({ apiKey: demoKey }, channel.kind, foreign))).code).toBe(
      "not_found",
    );
  });
});

describe("shared upstream reads", () => {
  const fake = fakeUpstreamPerTest({ HUB_TIMEOUT_MS: "2000" });
  let upstream: FakeUpstream;
  beforeEach(() => {
    upstream = fake.current;
    forgetSharedReadsForTests();
  });
  const slowly = (status: number, body: unknown) => (_req: unknown, res: Parameters<typeof sendJson>[0]) =>
    void setTimeout(() => sendJson(res, status, body), 50);

  it("ten identical reads arriving at once make one upstream call and all get its answer", async () => {
    upstream.handle = slowly(200, fakeWebhook());
    const since = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => getWebhook({ apiKey: KEY, since }, WEBHOOK)),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, () => fakeWebhook()));
    expect(upstream.requests.length).toBeLessThanOrEqual(2);
  });

  it("two keys never share a call, even at the same moment", async () => {
    upstream.handle = (req, res) =>
      void setTimeout(
        () =>
          sendJson(res, 200, { ...fakeWebhook(), endpoint: `https://${String(req.headers["x-api-key"])}` }),
        50,
      );
    const since = performance.now();
    const [a, b] = await Promise.all([
      getWebhook({ apiKey: "key-a-0123456789", since }, WEBHOOK),
      getWebhook({ apiKey: "key-b-0123456789", since }, WEBHOOK),
    ]);
    expect(a.endpoint).toBe("https://key-a-0123456789");
    expect(b.endpoint).toBe("https://key-b-0123456789");
    expect(upstream.requests.map((r) => r.headers["x-api-key"]).sort()).toEqual([
      "key-a-0123456789",
      "key-b-0123456789",
    ]);
  });

  it("a request never uses a call that started before it arrived: a key rotated a moment ago is 401 at once", async () => {
    let rotated = false;
    upstream.handle = (_req, res) => {
      const status = rotated ? 401 : 200;
      setTimeout(() => sendJson(res, status, fakeWebhook()), 100);
    };
    const before = getWebhook({ apiKey: KEY }, WEBHOOK);
    await upstream.nextRequest();
    rotated = true;
    // Arrives while the call made before the rotation is still in flight, and right after it succeeded.
    const during = failure(() => getWebhook({ apiKey: KEY }, WEBHOOK));
    expect(await before).toEqual(fakeWebhook());
    expect((await during).code).toBe("unauthorized");
    expect((await failure(() => getWebhook({ apiKey: KEY }, WEBHOOK))).code).toBe("unauthorized");
    expect(upstream.requests).toHaveLength(3);
  });

  it("requests arriving one by one while a call is in flight share one follow-up call, started after that call settles", async () => {
    let answered = 0;
    upstream.handle = (_req, res) =>
      void setTimeout(
        () => sendJson(res, 200, { ...fakeWebhook(), endpoint: `https://call-${++answered}` }),
        100,
      );
    const first = getWebhook({ apiKey: KEY }, WEBHOOK);
    await upstream.nextRequest();
    // Each arrives after the first call started, as a busy machine spreads a burst.
    const late: Array<Promise<Awaited<typeof first>>> = [];
    for (let i = 0; i < 5; i += 1) {
      late.push(getWebhook({ apiKey: KEY }, WEBHOOK));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(upstream.requests).toHaveLength(1);
    expect((await first).endpoint).toBe("https://call-1");
    expect((await Promise.all(late)).map((w) => w.endpoint)).toEqual(Array(5).fill("https://call-2"));
    expect(upstream.requests).toHaveLength(2);
  });

  it("a follow-up is told how long it waited for the call before it, which its own timeout leaves out", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      let settleFirst = () => {};
      const first = sharedRead("read", { since: performance.now(), poll: false }, () => {
        return new Promise<string>((resolve) => (settleFirst = () => resolve("first")));
      });
      vi.advanceTimersByTime(1500);
      const waits: number[] = [];
      const late = sharedRead(
        "read",
        { since: performance.now(), poll: false },
        async (_signal, _onStatus, waitedMs) => {
          waits.push(waitedMs);
          return "follow-up";
        },
      );
      vi.advanceTimersByTime(300);
      expect(waits).toEqual([]);
      settleFirst();
      expect(await first).toBe("first");
      expect(await late).toBe("follow-up");
      expect(waits).toEqual([300]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a follow-up call every waiter left is not made, and the next request gets a call of its own", async () => {
    upstream.handle = slowly(200, fakeWebhook());
    const first = getWebhook({ apiKey: KEY }, WEBHOOK);
    await upstream.nextRequest();
    const leaving = new AbortController();
    const left = failure(() => getWebhook({ apiKey: KEY, signal: leaving.signal }, WEBHOOK));
    leaving.abort();
    expect((await left).code).toBe("bad_request");
    const staying = getWebhook({ apiKey: KEY }, WEBHOOK);
    expect(await first).toEqual(fakeWebhook());
    expect(await staying).toEqual(fakeWebhook());
    expect(upstream.requests).toHaveLength(2);
  });

  it("a poll may reuse a successful read at most POLL_REUSE_MS old; an error is never reused", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
    await getWebhook({ apiKey: KEY }, WEBHOOK);
    expect(await getWebhook({ apiKey: KEY, poll: true }, WEBHOOK)).toEqual(fakeWebhook());
    expect(await getWebhook({ apiKey: KEY, poll: true }, WEBHOOK)).toEqual(fakeWebhook());
    expect(upstream.requests).toHaveLength(1);
    // Not a poll: asks again. Another URL (the logs) is its own read.
    await getWebhook({ apiKey: KEY }, WEBHOOK);
    expect(upstream.requests).toHaveLength(2);

    upstream.handle = (_req, res) => sendJson(res, 503, {});
    forgetSharedReadsForTests();
    expect((await failure(() => getWebhook({ apiKey: KEY, poll: true }, WEBHOOK))).status).toBe(502);
    expect((await failure(() => getWebhook({ apiKey: KEY, poll: true }, WEBHOOK))).status).toBe(502);
    expect(upstream.requests).toHaveLength(4);
  });

  it("a poll does not reuse a read older than POLL_REUSE_MS (so one viewer's poll never gets its own last answer)", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
      await getWebhook({ apiKey: KEY }, WEBHOOK);
      vi.advanceTimersByTime(POLL_REUSE_MS + 1);
      await getWebhook({ apiKey: KEY, poll: true }, WEBHOOK);
      expect(upstream.requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("one request leaving does not cancel a call another still waits for; the last one leaving does", async () => {
    upstream.handle = slowly(200, fakeWebhook());
    const since = performance.now();
    const leaving = new AbortController();
    const staying = getWebhook({ apiKey: KEY, since }, WEBHOOK);
    const left = failure(() => getWebhook({ apiKey: KEY, since, signal: leaving.signal }, WEBHOOK));
    leaving.abort();
    expect((await left).code).toBe("bad_request");
    expect(await staying).toEqual(fakeWebhook());
    expect(upstream.requests).toHaveLength(1);
  });

  it("a read that is not kept is shared while in flight and forgotten once it settles", async () => {
    upstream.handle = slowly(200, fakeWebhook());
    const since = performance.now();
    const both = Promise.all([
      getWebhook({ apiKey: KEY, since, keep: false }, WEBHOOK),
      getWebhook({ apiKey: KEY, since, keep: false }, WEBHOOK),
    ]);
    expect(sharedReadCountForTests()).toBe(1);
    expect(await both).toEqual([fakeWebhook(), fakeWebhook()]);
    expect(sharedReadCountForTests()).toBe(0);
    await getWebhook({ apiKey: KEY, poll: true }, WEBHOOK);
    expect(upstream.requests).toHaveLength(2);
  });

  it("bounds what it remembers", async () => {
    for (let index = 0; index <= MAX_SHARED_READS; index += 1) {
      await sharedRead(`read ${index}`, { since: performance.now(), poll: false }, async () => index);
    }
    expect(sharedReadCountForTests()).toBe(MAX_SHARED_READS);
    expect(await sharedRead("read 0", { since: 0, poll: false }, async () => "asked again")).toBe(
      "asked again",
    );
  });
});
