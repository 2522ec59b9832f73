/**
 * The outbound policy against real sockets on loopback: https only, loopback/private/link-local/
 * metadata addresses refused (literals, `localhost`, and a name that resolves to loopback only
 * when the connection is made), ALERTS_ALLOW_PRIVATE lifting it, the deadline and the size cap.
 */
import dns from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import {
  OutboundRefused,
  postOutbound,
  refusedAddress,
  refusedUrl,
  RESPONSE_READ_MAX,
  type Lookup,
  type OutboundPolicy,
} from "@/lib/server/alerts/outbound";
import { startReceiver, type Answer, type TestReceiver } from "@/tests/sandbox/support/receiver";

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

describe("addresses refused unless ALERTS_ALLOW_PRIVATE=1", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.8.9.10", "a loopback address"],
    ["::1", "a loopback address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:7f00:1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.20.0.5", "a private address"],
    ["192.168.1.1", "a private address"],
    ["fd00:ec2::254", "a private address"],
    ["169.254.169.254", "a link-local or cloud metadata address"],
    ["fe80::1", "a link-local or cloud metadata address"],
    ["0.0.0.0", "an unspecified, reserved or multicast address"],
    ["239.1.1.1", "an unspecified, reserved or multicast address"],
  ])("%s is %s", (address, words) => {
    expect(refusedAddress(address)).toBe(words);
  });

  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "8.8.8.8"])("%s is public", (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  it.each([
    ["https://127.0.0.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["https://[::1]:8443/hook", /::1 is a loopback address/],
    ["https://169.254.169.254/latest/meta-data", /link-local or cloud metadata/],
    ["https://localhost:9/hook", /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ["http://93.184.216.34/hook", /only https:\/\//],
    ["https://user:pw@93.184.216.34/hook", /user name or password/],
  ])("%s is refused before any connection", async (url, reason) => {
    expect(await refusedUrl(new URL(url), STRICT)).toMatch(reason);
    await expect(postOutbound(url, "{}", {}, STRICT)).rejects.toThrow(OutboundRefused);
  });

  it("a name that resolves to a public address when checked and to loopback when connecting is refused at connect time", async () => {
    const target = await receiver(() => ({ status: 200, body: "should never be reached" }));
    const lookup = rebinding("93.184.216.34", "127.0.0.1");
    const policy = { ...STRICT, lookup };
    const url = `https://rebind.test:${target.port}/hook`;
    expect(
      await refusedUrl(new URL(url), { ...STRICT, lookup: rebinding("93.184.216.34", "127.0.0.1") }),
    ).toBeNull();
    const error = await postOutbound(url, "{}", {}, policy).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefused);
    expect((error as Error).message).toMatch(/refused when connecting.*127\.0\.0\.1/);
    expect(target.requests).toHaveLength(0);
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
    expect(answer).toEqual({ status: 202, body: "accepted" });
    expect(target.requests).toEqual([
      expect.objectContaining({ body: '{"a":1}', headers: expect.objectContaining({ "x-test": "yes" }) }),
    ]);
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
