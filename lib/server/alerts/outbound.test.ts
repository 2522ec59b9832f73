/**
 * The outbound policy against real sockets on loopback: https only; every address of one
 * classification (addresses.ts: loopback, private, link-local, IPv4 carried in IPv6, NAT64,
 * 6to4, Teredo, documentation...) refused when checked before the call and again when the
 * connection is made, where nothing connects; `localhost` names refused by name;
 * ALERTS_ALLOW_PRIVATE and the sandbox inbox's exact origin lifting it; the deadline and the
 * size cap.
 */
import dns from "node:dns";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { refusedAddress } from "@/lib/server/alerts/addresses";
import {
  OutboundRefused,
  postOutbound,
  refusedUrl,
  RESPONSE_READ_MAX,
  type Lookup,
  type OutboundPolicy,
} from "@/lib/server/alerts/outbound";
import { startReceiver, type Answer, type TestReceiver } from "@/tests/sandbox/support/receiver";
import {
  PUBLIC_ADDRESSES,
  REFUSED_ADDRESSES,
  REFUSED_NAMES,
  urlHost,
} from "@/tests/support/private-addresses";

const STRICT: OutboundPolicy = { allowPrivate: false, timeoutMs: 2000 };
const OPEN: OutboundPolicy = { allowPrivate: true, timeoutMs: 2000 };

/** Long enough to outlast any deadline here: the receiver never answers. */
const HANG: Answer = { status: 200, delayMs: 600_000 };

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(answer: () => Answer) {
  const started = await startReceiver(answer);
  receivers.push(started);
  return { ...started, port: new URL(started.url).port };
}

/** A TCP listener on loopback that counts the connections made to it (TLS or not). */
async function connectionCounter(): Promise<{
  port: number;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A lookup that answers `first` once, then `then` for every later call (a DNS rebinding). */
function rebinding(first: string, then: string): Lookup {
  let calls = 0;
  return ((host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const address = calls++ === 0 ? first : then;
    const family = address.includes(":") ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as Lookup;
}

describe("one classification of addresses, unless ALERTS_ALLOW_PRIVATE=1", () => {
  it.each(REFUSED_ADDRESSES)("$address is refused", ({ address, words }) => {
    expect(refusedAddress(address)).toMatch(words);
  });

  it.each(PUBLIC_ADDRESSES)("%s is public", (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  it.each(REFUSED_ADDRESSES)(
    "$address literal in a URL is refused before any connection, with its words",
    async ({ address, words }) => {
      const counter = await connectionCounter();
      try {
        const url = `https://${urlHost(address)}:${counter.port}/hook`;
        expect(await refusedUrl(new URL(url), STRICT)).toMatch(words);
        await expect(postOutbound(url, "{}", {}, STRICT)).rejects.toThrow(OutboundRefused);
        expect(counter.connections()).toBe(0);
      } finally {
        await counter.close();
      }
    },
  );

  it.each(REFUSED_ADDRESSES)(
    "a name resolving to a public address when checked and to $address when connecting is refused at connect time; nothing connects",
    async ({ address, words }) => {
      const counter = await connectionCounter();
      try {
        const url = `https://rebind.test:${counter.port}/hook`;
        const policy = { ...STRICT, lookup: rebinding("93.184.216.34", address) };
        const error = await postOutbound(url, "{}", {}, policy).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OutboundRefused);
        expect((error as Error).message).toMatch(
          /^the address was refused when connecting: rebind\.test resolved to /,
        );
        expect((error as Error).message).toMatch(words);
        expect(counter.connections()).toBe(0);
      } finally {
        await counter.close();
      }
    },
  );

  it.each(REFUSED_NAMES)("%s is refused by its name, before and at connect time", async (name) => {
    const counter = await connectionCounter();
    try {
      const url = `https://${name}:${counter.port}/hook`;
      // Even a resolver that says it is public does not make it so.
      const policy = { ...STRICT, lookup: rebinding("93.184.216.34", "93.184.216.34") };
      expect(await refusedUrl(new URL(url), policy)).toMatch(/is a name for this machine \(loopback\)/);
      await expect(postOutbound(url, "{}", {}, policy)).rejects.toThrow(OutboundRefused);
      expect(counter.connections()).toBe(0);
    } finally {
      await counter.close();
    }
  });

  it.each([
    ["https://0x7f.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["https://017700000001/hook", /127\.0\.0\.1 is a loopback address/],
    ["https://127.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["https://[::127.0.0.1]/hook", /::7f00:1 is an IPv4-compatible address carrying 127\.0\.0\.1/],
    ["https://[0:0:0:0:0:ffff:127.0.0.1]/hook", /IPv4-mapped address carrying 127\.0\.0\.1/],
    ["http://93.184.216.34/hook", /only https:\/\//],
    ["https://user:pw@93.184.216.34/hook", /user name or password/],
  ])("%s is refused before any connection", async (url, reason) => {
    expect(await refusedUrl(new URL(url), STRICT)).toMatch(reason);
    await expect(postOutbound(url, "{}", {}, STRICT)).rejects.toThrow(OutboundRefused);
  });

  it("a name resolving to loopback from the start is refused with the address it resolved to", async () => {
    const lookup = rebinding("127.0.0.1", "127.0.0.1");
    expect(await refusedUrl(new URL("https://internal.test/hook"), { ...STRICT, lookup })).toBe(
      "internal.test resolves to 127.0.0.1, a loopback address: alerts go only to public addresses",
    );
  });

  it("ALERTS_ALLOW_PRIVATE=1 lets http:// on loopback through, and the receiver gets the body and headers", async () => {
    const target = await receiver(() => ({ status: 202, body: "accepted" }));
    const answer = await postOutbound(`${target.url}/hook`, '{"a":1}', { "x-test": "yes" }, OPEN);
    expect(answer).toEqual({ status: 202, body: "accepted", retryAfter: null });
    expect(target.requests).toEqual([
      expect.objectContaining({ body: '{"a":1}', headers: expect.objectContaining({ "x-test": "yes" }) }),
    ]);
  });

  it("hands back the receiver's Retry-After as sent", async () => {
    const target = await receiver(() => ({ status: 429, headers: { "retry-after": "7" } }));
    const answer = await postOutbound(`${target.url}/hook`, "{}", {}, OPEN);
    expect(answer).toEqual({ status: 429, body: "", retryAfter: "7" });
  });
});

describe("the sandbox's inbox, when npm start started the sandbox", () => {
  it("is called at its exact origin and below its path; its neighbours stay refused", async () => {
    const inbox = await receiver(() => ({ status: 204 }));
    const policy: OutboundPolicy = { ...STRICT, sandboxInbox: `${inbox.url}/_sandbox/inbox` };
    const answer = await postOutbound(`${inbox.url}/_sandbox/inbox/webhook`, "{}", {}, policy);
    expect(answer.status).toBe(204);
    expect(inbox.requests.map((r) => r.path)).toEqual(["/_sandbox/inbox/webhook"]);

    const { port } = inbox;
    for (const url of [
      `http://127.0.0.1:${Number(port) + 1}/_sandbox/inbox/webhook`,
      `http://localhost:${port}/_sandbox/inbox/webhook`,
      `https://127.0.0.1:${port}/_sandbox/inbox/webhook`,
      `http://127.0.0.1:${port}/_sandbox/applications/x/api-key`,
      `http://127.0.0.1:${port}/_sandbox/inbox`,
      `http://127.0.0.1:${port}/_sandbox/inbox/../receivers/ok`,
      `http://user:pw@127.0.0.1:${port}/_sandbox/inbox/webhook`,
      `http://10.0.0.1/_sandbox/inbox/webhook`,
    ]) {
      expect(await refusedUrl(new URL(url), policy), url).not.toBeNull();
      await expect(postOutbound(url, "{}", {}, policy), url).rejects.toThrow(OutboundRefused);
    }
    expect(inbox.requests).toHaveLength(1);
  });
});

describe("deadline and size cap", () => {
  it("an endpoint that never answers fails after the deadline", async () => {
    const target = await receiver(() => HANG);
    await expect(postOutbound(`${target.url}/hook`, "{}", {}, { ...OPEN, timeoutMs: 300 })).rejects.toThrow(
      "no complete answer within 300 ms",
    );
  });

  it("reads at most RESPONSE_READ_MAX bytes of a large answer", async () => {
    const target = await receiver(() => ({ status: 200, body: "x".repeat(RESPONSE_READ_MAX * 4) }));
    const answer = await postOutbound(`${target.url}/hook`, "{}", {}, OPEN);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(RESPONSE_READ_MAX);
  });

  it("a redirect is not followed", async () => {
    const target = await receiver(() => ({
      status: 302,
      body: "",
      headers: { location: "http://127.0.0.1:1/" },
    }));
    const answer = await postOutbound(`${target.url}/hook`, "{}", {}, OPEN);
    expect(answer.status).toBe(302);
    expect(target.requests).toHaveLength(1);
  });
});
