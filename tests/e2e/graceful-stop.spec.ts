/**
 * A console stopped with SIGTERM (`next start`, built): it refuses new connections at once,
 * answers the requests in flight (here one waiting on a slow hub), then exits; a request that
 * never finishes (a body that never comes) holds the exit back no longer than HUB_TIMEOUT_MS + 1 s.
 * The console is pointed at a scripted hub on 127.0.0.1 (fake-upstream.ts).
 */
import net from "node:net";
import { expect, test } from "@playwright/test";
import { fakeWebhook, sendJson, startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { signIn } from "../support/hub";
import { startConsole, type ServerProcess } from "./security/support";

const HUB_TIMEOUT_MS = 4000;
const SLOW_HUB_MS = 1500;
const KEY = "graceful-stop-key-0123456789abcdef";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

test.describe.configure({ mode: "serial", timeout: 60_000 });

let upstream: FakeUpstream;
let consoleServer: ServerProcess | undefined;

test.beforeAll(async () => {
  upstream = await startFakeUpstream(
    (_req, res) => void setTimeout(() => sendJson(res, 200, fakeWebhook()), SLOW_HUB_MS),
  );
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await upstream.close();
});

async function start(): Promise<{ server: ServerProcess; cookie: string }> {
  upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
  consoleServer = await startConsole({
    HUB_BASE_URL: upstream.url,
    HUB_TIMEOUT_MS: String(HUB_TIMEOUT_MS),
  });
  return { server: consoleServer, cookie: await signIn(consoleServer.url, KEY) };
}

const portOf = (server: ServerProcess) => Number(new URL(server.url).port);

/** Whether a fresh TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

test("SIGTERM during a slow hub call: the request is answered, new connections are refused, then the process exits", async () => {
  const { server, cookie } = await start();
  upstream.handle = (_req, res) => void setTimeout(() => sendJson(res, 200, fakeWebhook()), SLOW_HUB_MS);
  const arrived = upstream.nextRequest();
  const pending = fetch(`${server.url}/api/webhooks/${WEBHOOK}`, { headers: { cookie } });
  await arrived;

  let exitedAt: number | undefined;
  void server.exited.then(() => (exitedAt = Date.now()));
  server.kill("SIGTERM");
  await expect.poll(() => accepts(portOf(server)), { timeout: 2000 }).toBe(false);

  // Answered whole: the process was still there to send it. (Whether this test sees the answer or
  // the exit first is up to its own event loop, so the order is not what it checks.)
  const response = await pending;
  const answeredAt = Date.now();
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(fakeWebhook());

  // ...and it exits once the answer is out, not after waiting for anything else.
  const { code, signal } = await server.exited;
  expect(exitedAt! - answeredAt).toBeLessThan(2000);
  expect(code === 143 || signal === "SIGTERM").toBe(true);
  expect(server.output()).toContain("SIGTERM: no new connections");
});

test("a request that never completes holds the exit back at most HUB_TIMEOUT_MS + 1 s", async () => {
  const { server, cookie } = await start();
  // A POST whose body never comes: Next waits for it; only the console's own bound ends the wait.
  const stalled = net.connect({ port: portOf(server), host: "127.0.0.1" });
  await new Promise<void>((resolve) => stalled.once("connect", () => resolve()));
  stalled.write(
    `POST /api/messages/sms HTTP/1.1\r\nHost: 127.0.0.1:${portOf(server)}\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n` +
      "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
  );
  await new Promise((resolve) => setTimeout(resolve, 300));

  const signalledAt = Date.now();
  server.kill("SIGTERM");
  await server.exited;
  stalled.destroy();
  const took = Date.now() - signalledAt;
  expect(took).toBeGreaterThanOrEqual(HUB_TIMEOUT_MS);
  expect(took).toBeLessThan(HUB_TIMEOUT_MS + 3000);
  expect(server.output()).toContain("Requests still open after");
});
