import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_SESSION_SECRET } from "../../playwright.config";
import { freePort, startConsoleProcess, type Server } from "../support/server-process";
import {
  fakeLogPage,
  fakeWebhook,
  sendJson,
  startFakeUpstream,
  type FakeUpstream,
} from "../support/fake-upstream";

/**
 * The console's HTTP plumbing over real connections: a production console (started here from the
 * build) in front of a fake hub that counts what reaches it.
 */

test.describe.configure({ mode: "serial", timeout: 60_000 });

const KEY = "plumbing-key-0123456789abcdef";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const LOGS = `/api/webhooks/${WEBHOOK}/logs?limit=20`;

let hub: FakeUpstream;
let console_: Server;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  hub = await startFakeUpstream(async (req, res) => {
    if (req.url?.includes("/webhook-log")) return sendJson(res, 200, fakeLogPage());
    // The key check at sign-in asks for a webhook no one has.
    if (req.url?.includes(WEBHOOK)) return sendJson(res, 200, fakeWebhook());
    sendJson(res, 404, { message: "not found" });
  });
  console_ = await startConsoleProcess({
    name: "console (plumbing)",
    port: await freePort(),
    hubBaseUrl: hub.url,
    sessionSecret: E2E_SESSION_SECRET,
  });
});

test.afterAll(async () => {
  await console_?.stop();
  await hub?.close();
});

async function signIn(): Promise<string> {
  const response = await fetch(`${console_.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: console_.url },
    body: JSON.stringify({ apiKey: KEY }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** One GET over `agent`: its status. */
function get(agent: http.Agent, path: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${console_.url}${path}`,
      { agent, headers: cookie ? { cookie } : {} },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    request.on("error", reject);
  });
}

test("ten identical reads from five sessions of one key, sent at once to a busy console, make at most two hub calls", async () => {
  const cookies: string[] = [];
  for (let i = 0; i < 5; i += 1) cookies.push(await signIn());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  try {
    // Twenty open connections first, so the requests leave together rather than as each connects.
    await Promise.all(Array.from({ length: 20 }, () => get(agent, "/api/health")));
    const before = hub.requests.filter((r) => r.url.includes("/webhook-log")).length;
    // Ten page renders sent with the reads keep the console busy: each read's handler gets the
    // event loop later than the one before, while the first read's hub call is already out.
    const [reads] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, (_, i) => get(agent, LOGS, cookies[i % cookies.length]))),
      Promise.all(Array.from({ length: 10 }, () => get(agent, "/login"))),
    ]);
    expect(reads).toEqual(Array(10).fill(200));
    const calls = hub.requests.filter((r) => r.url.includes("/webhook-log")).length - before;
    expect(calls, "upstream calls for ten identical reads").toBeLessThanOrEqual(2);
  } finally {
    agent.destroy();
  }
});

test("a client that disconnects mid-upload is logged as one client-abort line, with no stack and no 500", async () => {
  const cookie = await signIn();
  const logged = console_.output().length;
  await new Promise<void>((resolve, reject) => {
    const request = http.request(`${console_.url}/api/messages/sms`, {
      method: "POST",
      headers: {
        cookie,
        origin: console_.url,
        "content-type": "application/json",
        "content-length": "4000",
      },
    });
    request.on("error", () => resolve());
    request.on("response", () => reject(new Error("the console answered a body it never got whole")));
    request.write('{"from":"');
    // Destroyed once the headers and the first bytes are out: the upload breaks off.
    setTimeout(() => {
      request.destroy();
      resolve();
    }, 300);
  });
  await expect
    .poll(() => console_.output().slice(logged), { timeout: 10_000 })
    .toContain('"route":"/api/messages/[channelKind]"');
  const output = console_.output().slice(logged);
  const lines = output.split("\n").filter((line) => line.includes("/api/messages/"));
  expect(lines, output).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "client abort", method: "POST", status: 499 });
  expect(output).not.toMatch(/unexpected error|\n\s+at /);
});
