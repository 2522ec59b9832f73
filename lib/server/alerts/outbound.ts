import "server-only";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import nodemailer from "nodemailer";
import { refusedAddress, refusedName } from "@/lib/server/alerts/addresses";

/**
 * The one way the console calls out to an alert destination. Destination addresses come from
 * people, so every call is checked twice with one classification (addresses.ts): before it
 * starts (the scheme, and every address the name resolves to) and again when the socket
 * connects (the connection's own lookup refuses a name whose addresses are not all public, so a
 * name that resolves to a public address first and to 127.0.0.1 the next time is refused).
 * Redirects are not followed; each call has a deadline (connect to last byte) and reads at most
 * RESPONSE_READ_MAX bytes of the answer. SMTP goes through the same checks.
 */

/** `dns.lookup`'s shape, so tests can make a name resolve where they need. */
export type Lookup = typeof dns.lookup;

export interface OutboundPolicy {
  /** ALERTS_ALLOW_PRIVATE: http:// and loopback/private/link-local addresses allowed. */
  allowPrivate: boolean;
  /** Deadline of one call, connect to last byte. */
  timeoutMs: number;
  /**
   * The sandbox's alert inbox (`http://127.0.0.1:4010/_sandbox/inbox`) when `npm start` started
   * the sandbox: addresses under it are called though they are http:// and on loopback.
   */
  sandboxInbox?: string | null;
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
  const nameWords = refusedName(bare);
  if (nameWords) return `${bare} is ${nameWords}`;
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

/**
 * True for an address under the sandbox's inbox: its exact origin (scheme, host and port) and
 * a path below the inbox's, so nothing else of the sandbox (its admin routes) is reachable.
 */
export function inSandboxInbox(url: URL, policy: OutboundPolicy): boolean {
  if (!policy.sandboxInbox || url.username || url.password) return false;
  const inbox = new URL(policy.sandboxInbox);
  return url.origin === inbox.origin && url.pathname.startsWith(`${inbox.pathname}/`);
}

/** Why the policy refuses this URL (scheme or address), or null. The reason never repeats the path. */
export async function refusedUrl(url: URL, policy: OutboundPolicy): Promise<string | null> {
  if (inSandboxInbox(url, policy)) return null;
  if (url.protocol !== "https:" && !(policy.allowPrivate && url.protocol === "http:")) {
    return "only https:// addresses are called (http:// is allowed only with ALERTS_ALLOW_PRIVATE=1)";
  }
  if (url.username || url.password) return "an address with a user name or password in it is not called";
  const refused = await refusedHost(url.hostname, policy);
  return refused ? `${refused}: alerts go only to public addresses` : null;
}

type ConnectOptions = { host?: string | null; lookup?: net.LookupFunction | Lookup };

/** Says a connection was refused by the policy, in the words the delivery log keeps. */
const refusedWhenConnecting = (why: string) =>
  new OutboundRefused(`the address was refused when connecting: ${why}`);

/**
 * A connection's options with the policy applied as it connects: an IP literal is checked now
 * (it is not looked up), a name by a lookup (the options' own, else DNS) that refuses it unless
 * every address it resolves to is public. Throws OutboundRefused for a literal the policy refuses.
 */
function checkedAtConnect<T extends ConnectOptions>(options: T): T & { lookup: net.LookupFunction } {
  const host = (options.host ?? "").replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    const words = refusedAddress(host);
    if (words) throw refusedWhenConnecting(`${host} is ${words}`);
  }
  const lookup = (options.lookup ?? dns.lookup) as Lookup;
  const checked: net.LookupFunction = (hostname, lookupOptions, callback) => {
    const nameWords = refusedName(hostname);
    if (nameWords) return callback(refusedWhenConnecting(`${hostname} is ${nameWords}`), "");
    lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      for (const { address } of addresses) {
        const words = refusedAddress(address);
        if (words) return callback(refusedWhenConnecting(`${hostname} resolved to ${address}, ${words}`), "");
      }
      const [first] = addresses;
      if (lookupOptions.all || !first) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
  return { ...options, lookup: checked };
}

type Callback = (error: Error | null, stream: Duplex) => void;

/** A connection of an agent below: the refusal of a literal goes to the request as a failed connection. */
function connectChecked(
  connect: (options: ConnectOptions, callback?: Callback) => Duplex | null | undefined,
  options: ConnectOptions,
  callback?: Callback,
) {
  let checked;
  try {
    checked = checkedAtConnect(options);
  } catch (error) {
    if (!callback) throw error;
    callback(error as Error, undefined as never);
    return undefined;
  }
  return connect(checked, callback);
}

/** Agents whose every connection is checked as it is made (request-filtering, with our classification). */
class CheckedHttpAgent extends http.Agent {
  override createConnection(options: http.ClientRequestArgs, callback?: Callback) {
    return connectChecked((checked, cb) => super.createConnection(checked, cb), options, callback);
  }
}
class CheckedHttpsAgent extends https.Agent {
  override createConnection(options: https.RequestOptions, callback?: Callback) {
    return connectChecked((checked, cb) => super.createConnection(checked, cb), options, callback);
  }
}

const AGENTS = {
  checked: {
    http: new CheckedHttpAgent({ keepAlive: false }),
    https: new CheckedHttpsAgent({ keepAlive: false }),
  },
  open: { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) },
};

/** ALERTS_ALLOW_PRIVATE, or the sandbox's inbox: the connection is not checked. */
const unchecked = (url: URL, policy: OutboundPolicy) => policy.allowPrivate || inSandboxInbox(url, policy);

export interface OutboundAnswer {
  status: number;
  /** The answer's body, at most RESPONSE_READ_MAX bytes of it, as UTF-8. */
  body: string;
  /** Its `Retry-After` header, as sent; null when absent. */
  retryAfter: string | null;
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
        agent: AGENTS[unchecked(target, policy) ? "open" : "checked"][secure ? "https" : "http"],
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
        const retryAfter = response.headers["retry-after"] ?? null;
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            retryAfter,
          });
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
    request.on("error", (error) => reject(timeoutOr(error, signal, policy)));
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

/** The relay of SMTP_URL, and SMTP_ALLOW_PLAINTEXT_AUTH. */
export interface SmtpRelay {
  url: string;
  /** Credentials may go over a connection the relay did not encrypt (STARTTLS not offered). */
  allowPlaintextAuth: boolean;
}

/**
 * Sends one email through `relay` (smtp:// with STARTTLS, smtps:// with TLS from the start), its
 * connection checked as HTTP calls are. With a user name in SMTP_URL, STARTTLS is required: a
 * relay that does not offer it (or a man in the middle that strips it) gets no AUTH, unless
 * SMTP_ALLOW_PLAINTEXT_AUTH=1. Resolves with the relay's reply ("250 OK …").
 */
export async function sendMailOutbound(
  relay: SmtpRelay,
  mail: OutboundMail,
  policy: OutboundPolicy,
): Promise<{ response: string }> {
  const url = new URL(relay.url);
  const refused = await refusedHost(url.hostname, policy);
  if (refused) throw new OutboundRefused(`SMTP_URL: ${refused}: alerts go only to public addresses`);
  const secure = url.protocol === "smtps:";
  const port = Number(url.port) || (secure ? 465 : 587);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const auth = url.username
    ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    : undefined;
  const requireTLS = Boolean(auth) && !secure && !relay.allowPlaintextAuth;
  const transport = nodemailer.createTransport({
    host,
    port,
    secure,
    requireTLS,
    auth,
    connectionTimeout: policy.timeoutMs,
    greetingTimeout: policy.timeoutMs,
    socketTimeout: policy.timeoutMs,
    getSocket: (_options, callback) => {
      let socket: net.Socket;
      try {
        const options = { host, port, lookup: policy.lookup };
        socket = net.connect(policy.allowPrivate ? options : checkedAtConnect(options));
      } catch (error) {
        return callback(error as Error, undefined);
      }
      const onError = (error: Error) => callback(error, undefined);
      socket.once("error", onError);
      socket.once("connect", () => {
        socket.off("error", onError);
        callback(null, { connection: socket });
      });
    },
  });
  try {
    const info = await transport.sendMail({ ...mail });
    return { response: info.response };
  } catch (error) {
    if (requireTLS && (error as { code?: string }).code === "ETLS") {
      throw new Error(
        `SMTP_URL: the relay at ${host}:${port} did not start TLS (STARTTLS), so its user name and password were not sent. ` +
          "Use smtps:// or a relay that offers STARTTLS; on a trusted network, SMTP_ALLOW_PLAINTEXT_AUTH=1 sends them in clear.",
      );
    }
    throw error;
  } finally {
    transport.close();
  }
}
