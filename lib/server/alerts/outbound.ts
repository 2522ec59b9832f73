import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import nodemailer from "nodemailer";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/**
 * The one way the console calls out to an alert destination. Destination addresses come from
 * people, so every call is checked twice: before it starts (the scheme, and every address the
 * name resolves to) and again when the socket connects (request-filtering-agent checks the
 * address the connection actually uses, so a name that resolves to a public address first and
 * to 127.0.0.1 the next time is refused). Redirects are not followed; each call has a deadline
 * (connect to last byte) and reads at most RESPONSE_READ_MAX bytes of the answer.
 * SMTP goes through the same checks (its socket comes from the same agent).
 */

/** `dns.lookup`'s shape, so tests can make a name resolve where they need. */
export type Lookup = typeof dns.lookup;

export interface OutboundPolicy {
  /** ALERTS_ALLOW_PRIVATE: http:// and loopback/private/link-local addresses allowed. */
  allowPrivate: boolean;
  /** Deadline of one call, connect to last byte. */
  timeoutMs: number;
  lookup?: Lookup;
}

/** Most bytes of an answer read; the rest is dropped. */
export const RESPONSE_READ_MAX = 64 * 1024;

/** A call the policy refuses: never retried, recorded as "refused". */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefused";
  }
}

/** Ranges never called unless ALERTS_ALLOW_PRIVATE=1, by the words a refusal uses. */
const REFUSED: Array<[string, Array<[string, number]>]> = [
  [
    "a loopback address",
    [
      ["127.0.0.0", 8],
      ["::1", 128],
    ],
  ],
  [
    "a private address",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
      ["100.64.0.0", 10],
      ["fc00::", 7],
    ],
  ],
  [
    "a link-local or cloud metadata address",
    [
      ["169.254.0.0", 16],
      ["fe80::", 10],
    ],
  ],
  [
    "an unspecified, reserved or multicast address",
    [
      ["0.0.0.0", 8],
      ["192.0.0.0", 24],
      ["198.18.0.0", 15],
      ["224.0.0.0", 3],
      ["::", 128],
      ["ff00::", 8],
    ],
  ],
];

const blockLists = REFUSED.map(([words, ranges]) => {
  const list = new net.BlockList();
  for (const [network, prefix] of ranges)
    list.addSubnet(network, prefix, net.isIPv6(network) ? "ipv6" : "ipv4");
  return { words, list };
});

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`, `::ffff:7f00:1`), else the address as is. */
function unmapped(address: string): string {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return address;
  if (match[1]) return match[1];
  const value = (parseInt(match[2]!, 16) << 16) | parseInt(match[3]!, 16);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join(".");
}

/** Why an IP address is refused ("a loopback address"), or null when it may be called. */
export function refusedAddress(address: string): string | null {
  const ip = unmapped(address.replace(/^\[|\]$/g, ""));
  const family = net.isIP(ip);
  if (family === 0) return null;
  const type = family === 6 ? "ipv6" : "ipv4";
  return blockLists.find(({ list }) => list.check(ip, type))?.words ?? null;
}

async function resolveAll(host: string, lookup: Lookup): Promise<string[]> {
  return new Promise((resolve, reject) =>
    lookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((entry) => entry.address)),
    ),
  );
}

/**
 * Why the policy refuses to call `host` (a name or an IP literal), or null. A name that does not
 * resolve now is let through: the check at connect time still stands.
 */
export async function refusedHost(host: string, policy: OutboundPolicy): Promise<string | null> {
  if (policy.allowPrivate) return null;
  const bare = host.replace(/^\[|\]$/g, "");
  if (net.isIP(bare)) {
    const words = refusedAddress(bare);
    return words ? `${bare} is ${words}` : null;
  }
  let addresses: string[];
  try {
    addresses = await resolveAll(bare, policy.lookup ?? dns.lookup);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const words = refusedAddress(address);
    if (words) return `${bare} resolves to ${address}, ${words}`;
  }
  return null;
}

/** Why the policy refuses this URL (scheme or address), or null. The reason never repeats the path. */
export async function refusedUrl(url: URL, policy: OutboundPolicy): Promise<string | null> {
  if (url.protocol !== "https:" && !(policy.allowPrivate && url.protocol === "http:")) {
    return "only https:// addresses are called (http:// is allowed only with ALERTS_ALLOW_PRIVATE=1)";
  }
  if (url.username || url.password) return "an address with a user name or password in it is not called";
  const refused = await refusedHost(url.hostname, policy);
  return refused ? `${refused}: alerts go only to public addresses` : null;
}

/** The agents that check each connection's address (private ones allowed only with ALERTS_ALLOW_PRIVATE). */
function agentsFor(allowPrivate: boolean) {
  const options = { allowPrivateIPAddress: allowPrivate, keepAlive: false };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}
const AGENTS = { strict: agentsFor(false), open: agentsFor(true) };
const agents = (policy: OutboundPolicy) => (policy.allowPrivate ? AGENTS.open : AGENTS.strict);

/** request-filtering-agent's refusal, told apart from other connection errors by its words. */
function asRefusal(error: unknown): unknown {
  return error instanceof Error && /is not allowed/.test(error.message)
    ? new OutboundRefused(`the address was refused when connecting: ${error.message}`)
    : error;
}

export interface OutboundAnswer {
  status: number;
  /** The answer's body, at most RESPONSE_READ_MAX bytes of it, as UTF-8. */
  body: string;
}

/**
 * POSTs `body` to `url` under the policy. Resolves with any HTTP answer (the caller judges its
 * status); rejects with OutboundRefused, or an Error saying what went wrong (timeout, refused
 * connection, TLS).
 */
export async function postOutbound(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
): Promise<OutboundAnswer> {
  const target = new URL(url);
  const refused = await refusedUrl(target, policy);
  if (refused) throw new OutboundRefused(refused);
  const secure = target.protocol === "https:";
  const signal = AbortSignal.timeout(policy.timeoutMs);
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const request = (secure ? https : http).request(
      target,
      {
        method: "POST",
        agent: secure ? agents(policy).https : agents(policy).http,
        lookup: policy.lookup,
        signal,
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "WebhookConsole-Alerts/1.0",
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        response.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_READ_MAX) return;
          chunks.push(chunk.subarray(0, RESPONSE_READ_MAX - size));
          size += chunk.length;
          // Enough read: the rest of a large answer is not waited for.
          if (size >= RESPONSE_READ_MAX) {
            response.destroy();
            done();
          }
        });
        response.on("end", done);
        response.on("error", (error) => reject(timeoutOr(error, signal, policy)));
      },
    );
    request.on("error", (error) => reject(asRefusal(timeoutOr(error, signal, policy))));
    request.end(body);
  });
}

function timeoutOr(error: Error, signal: AbortSignal, policy: OutboundPolicy): Error {
  return signal.aborted ? new Error(`no complete answer within ${policy.timeoutMs} ms`) : error;
}

export interface OutboundMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Message-ID header, so a receiving system can tell a repeated send. */
  messageId: string;
}

/**
 * Sends one email through the relay of `smtpUrl` (smtp:// with STARTTLS when offered, smtps://
 * with TLS from the start), its connection made by the same checking agent. Resolves with the
 * relay's reply ("250 OK …").
 */
export async function sendMailOutbound(
  smtpUrl: string,
  mail: OutboundMail,
  policy: OutboundPolicy,
): Promise<{ response: string }> {
  const url = new URL(smtpUrl);
  const refused = await refusedHost(url.hostname, policy);
  if (refused) throw new OutboundRefused(`SMTP_URL: ${refused}: alerts go only to public addresses`);
  const secure = url.protocol === "smtps:";
  const port = Number(url.port) || (secure ? 465 : 587);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const transport = nodemailer.createTransport({
    host,
    port,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: policy.timeoutMs,
    greetingTimeout: policy.timeoutMs,
    socketTimeout: policy.timeoutMs,
    getSocket: (_options, callback) => {
      const socket = agents(policy).http.createConnection({ host, port, lookup: policy.lookup }) as Duplex;
      const onError = (error: Error) => callback(asRefusal(error) as Error, undefined);
      socket.once("error", onError);
      socket.once("connect", () => {
        socket.off("error", onError);
        callback(null, { connection: socket as net.Socket });
      });
    },
  });
  try {
    const info = await transport.sendMail({ ...mail });
    return { response: info.response };
  } finally {
    transport.close();
  }
}
