/**
 * The bench's reference proxy: a do-nothing HTTP pass-through in plain node:http. No session, no
 * validation, no Next: it forwards the request to the upstream over keep-alive and pipes the answer
 * back. Its ratio to the direct call is the least any proxy hop in Node costs on this machine, so
 * the bench can show how much of the console's proxy overhead is the hop itself.
 *
 * Run by the bench as `node --import tsx tests/bench/bare-proxy.ts` with BARE_PROXY_PORT and
 * BARE_PROXY_UPSTREAM (an http:// origin); `GET /_bare/health` answers 200.
 */
import http from "node:http";

const port = Number(process.env.BARE_PROXY_PORT);
const upstream = new URL(process.env.BARE_PROXY_UPSTREAM ?? "");
if (!Number.isInteger(port) || port <= 0 || upstream.protocol !== "http:") {
  process.stderr.write(
    "bare-proxy: set BARE_PROXY_PORT (a port) and BARE_PROXY_UPSTREAM (an http:// origin)\n",
  );
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const server = http.createServer((req, res) => {
  if (req.url === "/_bare/health") {
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    return;
  }
  const headers = { ...req.headers, host: upstream.host };
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("bare-proxy: upstream failed");
  });
  req.pipe(forward);
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () =>
  process.stdout.write(`bare-proxy on http://127.0.0.1:${port} -> ${upstream.origin}\n`),
);
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
