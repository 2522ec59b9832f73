/**
 * A client that goes away before its answer (a cancelled fetch, a connection closed mid-upload)
 * is the client's doing: one "client abort" line in the request log, no stack, no 500.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { HOST, ORIGIN, signedInCookie } from "@/tests/support/route-requests";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import * as messagesRoute from "@/app/api/messages/[channelKind]/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const KEY = "client-abort-key-0123456789abcdef";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
});

let stdout: ReturnType<typeof spyOnStdout>;
let stderr: ReturnType<typeof spyOnConsoleError>;

const spyOnStdout = () => vi.spyOn(process.stdout, "write").mockImplementation(() => true);
const spyOnConsoleError = () => vi.spyOn(console, "error").mockImplementation(() => undefined);

beforeEach(() => {
  signInLimiter.reset();
  fake.current.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
  stdout = spyOnStdout();
  stderr = spyOnConsoleError();
});
afterEach(() => vi.restoreAllMocks());

/** The answer is no 500, nothing went to the error log, and the request log has one client-abort line. */
function expectOneClientAbort(response: Response, method: string, route: string): void {
  expect(response.status).not.toBe(500);
  expect(stderr).not.toHaveBeenCalled();
  const lines = stdout.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ msg: "client abort", method, route });
}

describe("a client that goes away", () => {
  it("mid-upload: logged as one client-abort line, no stack, not a 500", async () => {
    const cookie = await signedInCookie(KEY);
    stdout.mockClear();
    const controller = new AbortController();
    // The body breaks off after its first bytes, as Node reports a connection closed mid-upload.
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new TextEncoder().encode('{"from":"'));
      },
      pull(stream) {
        controller.abort();
        stream.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const response = await messagesRoute.POST(
      new Request(`${ORIGIN}/api/messages/sms`, {
        method: "POST",
        headers: { host: HOST, origin: ORIGIN, cookie, "content-type": "application/json" },
        body,
        duplex: "half",
        signal: controller.signal,
      } as RequestInit),
      { params: Promise.resolve({ channelKind: "sms" }) },
    );
    expectOneClientAbort(response, "POST", "/api/messages/[channelKind]");
    expect(fake.current.requests).toHaveLength(0);
  });

  it("while its hub call is in flight: logged as one client-abort line, and the call is cancelled", async () => {
    const cookie = await signedInCookie(KEY);
    stdout.mockClear();
    fake.current.handle = () => {};
    const controller = new AbortController();
    const arrived = fake.current.nextRequest();
    const pending = webhookRoute.GET(
      new Request(`${ORIGIN}/api/webhooks/${WEBHOOK}`, {
        headers: { host: HOST, cookie },
        signal: controller.signal,
      }),
      { params: Promise.resolve({ webhookId: WEBHOOK }) },
    );
    const recorded = await arrived;
    controller.abort();
    const response = await pending;
    expectOneClientAbort(response, "GET", "/api/webhooks/[webhookId]");
    await vi.waitFor(() => expect(recorded.aborted).toBe(true), { timeout: 2000 });
  });
});
