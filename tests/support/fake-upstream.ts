/**
 * TEST ONLY. A tiny Messaging Hub stand-in on 127.0.0.1 (port 0) for unit tests of the hub
 * client and the route handlers: each test sets `handle` to script the answer (slow, 5xx,
 * garbage, 429, oversize…), and `requests` records what reached it, so a test can assert that
 * bad input sent nothing upstream and that a client abort closed the upstream connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Set when the caller closed the connection before the answer was complete. */
  aborted: boolean;
}

export type UpstreamHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  recorded: RecordedRequest,
) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  handle: UpstreamHandler;
  /** Resolves when the next request arrives (after its body was read). */
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export async function startFakeUpstream(
  handle: UpstreamHandler = (_req, res) => sendJson(res, 200, {}),
): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let waiters: ((r: RecordedRequest) => void)[] = [];
  const upstream: FakeUpstream = {
    url: "",
    requests,
    handle,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      aborted: false,
    };
    res.on("close", () => {
      if (!res.writableFinished) recorded.aborted = true;
    });
    requests.push(recorded);
    const current = waiters;
    waiters = [];
    current.forEach((resolve) => resolve(recorded));
    try {
      await upstream.handle(req, res, recorded);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/** Answers the log list as the hub does: `logs` (newest first) paged by `offset` and `limit`, whatever the webhook. */
export function servesLogs(logs: readonly unknown[]): UpstreamHandler {
  return (req, res) => {
    const url = new URL(req.url ?? "", "http://hub");
    const offset = Number(url.searchParams.get("offset"));
    const limit = Number(url.searchParams.get("limit"));
    sendJson(res, 200, {
      data: logs.slice(offset, offset + limit),
      pagination: { offset, limit, total: logs.length, totalPages: Math.ceil(logs.length / limit) },
    });
  };
}

/** A webhook as the hub would answer it (with a field the spec does not show). */
export function fakeWebhook(id = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d") {
  return {
    id,
    endpoint: "https://example.test/hook",
    eventType: "Message",
    numberOfErrors: 3,
    active: true,
    secretHint: "x",
  };
}

export function fakeLogPage(webhookId = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d") {
  return {
    data: [
      {
        id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
        webhookId,
        statusCode: 500,
        responseBody: "<h1>oops</h1>",
        status: "Failed",
        sendAt: "2025-01-01T00:00:00.000Z",
        createdDate: "2025-01-01T00:00:00.000Z",
        messageId: "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a",
        webhook: { id: webhookId, endpoint: "https://example.test/hook", eventType: "Message" },
        attempt: 1,
      },
    ],
    pagination: { offset: 0, limit: 20, total: 1, totalPages: 1 },
  };
}
