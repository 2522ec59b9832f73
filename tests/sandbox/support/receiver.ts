/**
 * A customer endpoint for tests: a node:http server on 127.0.0.1 (port 0) that records every
 * request and answers as the test says.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Send the status and `body` at once, but end the response only after this long. */
  streamEndAfterMs?: number;
}

export interface TestReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 }),
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const reply = answer(request);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { "content-type": "text/plain; charset=utf-8", ...reply.headers });
        if (reply.streamEndAfterMs === undefined) {
          res.end(reply.body ?? "");
          return;
        }
        res.write(reply.body ?? "");
        setTimeout(() => res.end(), reply.streamEndAfterMs).unref();
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port where nothing listens (bound then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
