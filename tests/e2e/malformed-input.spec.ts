import http from "node:http";
import { expect, test } from "./fixtures/test";

/**
 * Malformed percent-encodings (`%`, `%ZZ`, a cut UTF-8 sequence, a lone surrogate) in the path,
 * the query and a pasted Find link, against the real console: a 400 that names the field, or
 * the page with its usual answer, never a 500.
 */

const MALFORMED = ["%", "%ZZ", "%E0%A4%A", "%ED%A0%80"];
const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

/** One request with its path sent exactly as written (no URL parser to repair it). */
function send(
  baseURL: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

test("a malformed path is a 400 naming the field, on every API route and page", async ({
  baseURL,
  sandbox,
}) => {
  const { webhooks } = await sandbox.demo();
  const webhook = webhooks[0]!.id;
  const origin = { origin: baseURL! };
  for (const bad of MALFORMED) {
    const api: Array<[string, string, string, string]> = [
      ["GET", `/api/webhooks/${bad}`, "webhookId", "webhook ID"],
      ["GET", `/api/webhooks/${bad}/logs?limit=5`, "webhookId", "webhook ID"],
      ["GET", `/api/webhooks/${bad}/history/find?q=${LOG}`, "webhookId", "webhook ID"],
      ["GET", `/api/webhooks/${bad}/history/health`, "webhookId", "webhook ID"],
      ["POST", `/api/webhooks/${webhook}/logs/${bad}/retry`, "logId", "log ID"],
      ["POST", `/api/messages/${bad}`, "channelKind", "channel kind"],
      ["GET", `/api/${bad}`, "path", "path"],
      ["GET", `/api/session/${bad}`, "path", "path"],
    ];
    for (const [method, path, field, label] of api) {
      const answer = await send(baseURL!, method, path, origin);
      expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(400);
      const { error } = JSON.parse(answer.body) as {
        error: { code: string; message: string; fields: Record<string, string[]> };
      };
      expect(error.code).toBe("bad_request");
      expect(error.message).toContain(`The ${label} in this address`);
      expect(error.fields[field]).toBeDefined();
    }
    for (const [path, label] of [
      [`/webhooks/${bad}`, "webhook ID"],
      [`/webhooks/${bad}?find=${LOG}`, "webhook ID"],
      [`/${bad}`, "path"],
      [`/applications/${bad}`, "path"],
    ]) {
      const answer = await send(baseURL!, "GET", path!);
      expect(answer.status, `${path}: ${answer.body}`).toBe(400);
      expect(answer.type).toMatch(/^text\/plain/);
      expect(answer.body).toContain(`The ${label} in this address`);
    }
  }
});

test("malformed query parameters and pasted Find links: the webhook page answers, and Find says what is wrong", async ({
  page,
  baseURL,
  sandbox,
}) => {
  // Some forty page renders.
  test.setTimeout(180_000);
  const { apiKey, webhooks } = await sandbox.demo();
  const webhook = webhooks[0]!.id;
  // page.request shares the page's cookies: the session it signs in is the page's.
  const signedIn = await page.request.post("/api/session", {
    data: { apiKey },
    headers: { origin: baseURL! },
  });
  expect(signedIn.status()).toBe(200);
  await page.goto(`/webhooks/${webhook}`);
  await expect(page).toHaveURL(/\?app=/);
  const own = new URL(page.url());
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

  for (const link of [`/webhooks/%E0%A4%A?log=${LOG}`, `http://127.0.0.1/webhooks/%?log=${LOG}`]) {
    const response = await page.goto(`${own.pathname}${own.search}&find=${encodeURIComponent(link)}`);
    expect(response?.status(), link).toBe(200);
    await expect(
      page.getByText("Find a delivery: this link's webhook ID is not a UUID: copy the link again."),
    ).toBeVisible();
  }
  for (const parameter of ["find", "log", "code", "since", "until", "contains", "status", "page", "app"]) {
    for (const bad of MALFORMED) {
      const answer = await send(baseURL!, "GET", `${own.pathname}${own.search}&${parameter}=${bad}`, {
        cookie,
      });
      expect(answer.status, `?${parameter}=${bad}`).toBeLessThan(500);
    }
  }
});
