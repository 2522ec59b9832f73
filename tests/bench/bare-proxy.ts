/**
 * The bench's reference proxy: a do-nothing HTTP pass-through in plain node:http. No session, no
 * validation, no Next: it forwards the request to the upstream over keep-alive and pipes the answer
 * back. Its ratio to the direct call is the least any proxy hop in Node costs on this machine, so
 * the bench can show how much of the console's proxy overhead is the hop itself.
 *
 * With BARE_PROXY_DELAY_MS it holds each request that long before forwarding it: the upstream
 * as if it were that far away. It counts what it forwarded, by path: `GET /_bare/calls` answers
 * `{ "<path>": count }`, so the bench can count upstream calls.
 *
 * Run by the bench as `node --import tsx tests/bench/bare-proxy.ts` with BARE_PROXY_PORT and
 * BARE_PROXY_UPSTREAM (an http:// origin); `GET /_bare/health` answers 200.
 */
import http from "node:http";

const port = Number(process.env.BARE_PROXY_PORT);
const upstream = new URL(process.env.BARE_PROXY_UPSTREAM ?? "");
const delayMs = Number(process.env.BARE_PROXY_DELAY_MS ?? 0);
if (!Number.isInteger(port) || port <= 0 || upstream.protocol !== "http:" || !(delayMs >= 0)) {
  process.stderr.write(
    "bare-proxy: set BARE_PROXY_PORT (a port), BARE_PROXY_UPSTREAM (an http:// origin) and optionally BARE_PROXY_DELAY_MS (>= 0)\n",
  );
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const calls = new Map<string, number>();

const server = http.createServer((req, res) => {
  if (req.url === "/_bare/health") {
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    return;
  }
  if (req.url === "/_bare/calls") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(calls)));
    return;
  }
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  calls.set(pathname, (calls.get(pathname) ?? 0) + 1);
  if (delayMs > 0) setTimeout(() => forward(req, res), delayMs);
  else forward(req, res);
});

function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
  const headers = { ...req.headers, host: upstream.host };
  const upstreamRequest = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstreamRequest.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("bare-proxy: upstream failed");
  });
  req.pipe(upstreamRequest);
}
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () =>
  process.stdout.write(`bare-proxy on http://127.0.0.1:${port} -> ${upstream.origin}\n`),
);
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
