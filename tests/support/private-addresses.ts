/**
 * TEST ONLY. Addresses an alert must never be sent to unless ALERTS_ALLOW_PRIVATE=1, each with
 * the words its refusal uses, and public ones that stay allowed: one table for the check when a
 * destination is added (the route) and the one when a connection is made (outbound.ts).
 */

/** An IP address (as a resolver answers it), the host in a URL, and the words of its refusal. */
export interface RefusedAddress {
  address: string;
  words: RegExp;
}

const v6 = (address: string, words: RegExp): RefusedAddress => ({ address, words });

export const REFUSED_ADDRESSES: RefusedAddress[] = [
  { address: "127.0.0.1", words: /a loopback address/ },
  { address: "127.255.255.254", words: /a loopback address/ },
  { address: "10.0.0.1", words: /a private address/ },
  { address: "172.16.5.4", words: /a private address/ },
  { address: "172.31.255.255", words: /a private address/ },
  { address: "192.168.0.1", words: /a private address/ },
  { address: "100.64.0.1", words: /carrier-grade NAT/ },
  { address: "169.254.169.254", words: /link-local or cloud metadata/ },
  { address: "0.0.0.0", words: /unspecified/ },
  { address: "224.0.0.1", words: /multicast/ },
  { address: "255.255.255.255", words: /broadcast/ },
  { address: "240.0.0.1", words: /reserved/ },
  { address: "192.0.2.10", words: /documentation/ },
  { address: "198.51.100.7", words: /documentation/ },
  { address: "203.0.113.9", words: /documentation/ },
  { address: "198.18.0.1", words: /reserved/ },
  v6("::1", /a loopback address/),
  v6("::", /unspecified/),
  v6("fd00::1", /unique local/),
  v6("fc00::5", /unique local/),
  v6("fe80::1", /link-local/),
  v6("fec0::1", /site-local/),
  v6("::ffff:127.0.0.1", /IPv4-mapped address carrying 127\.0\.0\.1, a loopback address/),
  v6("::ffff:10.0.0.1", /IPv4-mapped address carrying 10\.0\.0\.1, a private address/),
  v6("::ffff:0:7f00:1", /IPv4-mapped address carrying 127\.0\.0\.1/),
  v6("::127.0.0.1", /IPv4-compatible address carrying 127\.0\.0\.1, a loopback address/),
  v6("::10.1.2.3", /IPv4-compatible address carrying 10\.1\.2\.3/),
  v6("64:ff9b::7f00:1", /NAT64 address carrying 127\.0\.0\.1/),
  v6("64:ff9b::a00:1", /NAT64 address carrying 10\.0\.0\.1/),
  v6("64:ff9b:1::1", /NAT64 address for local use/),
  v6("2002:7f00:1::", /6to4 address carrying 127\.0\.0\.1, a loopback address/),
  v6("2002:c0a8:101::1", /6to4 address carrying 192\.168\.1\.1, a private address/),
  v6("2001::1", /Teredo/),
  v6("ff02::1", /multicast/),
  v6("2001:db8::1", /documentation/),
];

/** Names that mean this machine, refused without resolving them. */
export const REFUSED_NAMES = ["localhost", "LOCALHOST.", "LocalHost", "api.localhost", "Foo.LOCALHOST."];

/** Public addresses: still called. */
export const PUBLIC_ADDRESSES = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2002:808:808::1"];

/** The host part of a URL for an address: IPv6 in brackets. */
export const urlHost = (address: string) => (address.includes(":") ? `[${address}]` : address);
