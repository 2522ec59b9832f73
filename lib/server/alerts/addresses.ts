import "server-only";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The one classification of the addresses alerts may be sent to, used when a destination is
 * added (its URL's host, literal or name) and again when a connection is made (every address a
 * name resolves to). Only public unicast addresses are called: ipaddr.js names every special
 * range (loopback, private, CGNAT, link-local, multicast, reserved and documentation, site-local,
 * NAT64, Teredo...), and an IPv6 address that carries an IPv4 one is judged by the one it carries
 * too, so `::127.0.0.1` or `2002:7f00:1::` cannot reach loopback in disguise.
 */

/** Ranges both families name alike, in the words a refusal uses. */
const COMMON_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  reserved: "a reserved or documentation address",
};

/** Why each IPv4 range of ipaddr.js is refused. */
const IPV4_WORDS: Record<string, string> = {
  ...COMMON_WORDS,
  private: "a private address",
  carrierGradeNat: "a private address (carrier-grade NAT)",
  linkLocal: "a link-local or cloud metadata address",
  broadcast: "the broadcast address",
};

/** Why each IPv6 range is refused; those that carry an IPv4 address are judged in ipv6Words. */
const IPV6_WORDS: Record<string, string> = {
  ...COMMON_WORDS,
  uniqueLocal: "a private address (unique local)",
  linkLocal: "a link-local address",
  deprecatedSiteLocal: "a site-local address",
  teredo: "a Teredo tunnel address",
};

/** Any other range ipaddr.js names (benchmarking, AS112, ORCHID...): not a place alerts go. */
const OTHER_WORDS = "a special-purpose address";

function ipv4Words(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === "unicast" ? null : (IPV4_WORDS[range] ?? OTHER_WORDS);
}

/** The IPv4 address in the low 32 bits (IPv4-mapped, -compatible, NAT64) or bits 16-47 (6to4). */
function carriedIPv4(address: ipaddr.IPv6, at: "low" | "6to4"): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  const start = at === "low" ? 12 : 2;
  return new ipaddr.IPv4(bytes.slice(start, start + 4));
}

/** `::a.b.c.d` (deprecated IPv4-compatible form): ::/96 but not `::` or `::1`, which ipaddr.js calls unicast. */
function isIPv4Compatible(address: ipaddr.IPv6, range: string): boolean {
  return range === "unicast" && address.parts.slice(0, 6).every((part) => part === 0);
}

function ipv6Words(address: ipaddr.IPv6): string | null {
  const range = address.range();
  const carrying = (kind: string, at: "low" | "6to4") => {
    const carried = carriedIPv4(address, at);
    const words = ipv4Words(carried);
    return `${kind} carrying ${carried.toString()}${words ? `, ${words}` : ""}`;
  };
  if (range === "ipv4Mapped" || range === "rfc6145") return carrying("an IPv4-mapped address", "low");
  if (isIPv4Compatible(address, range)) return carrying("an IPv4-compatible address", "low");
  if (range === "rfc6052") {
    // 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is for a network's own use.
    const wellKnown = address.parts[2] === 0 && address.parts[3] === 0 && address.parts[4] === 0;
    return wellKnown ? carrying("a NAT64 address", "low") : "a NAT64 address for local use";
  }
  if (range === "6to4") {
    const carried = carriedIPv4(address, "6to4");
    const words = ipv4Words(carried);
    return words ? `a 6to4 address carrying ${carried.toString()}, ${words}` : null;
  }
  if (range === "unicast") return null;
  return IPV6_WORDS[range] ?? OTHER_WORDS;
}

/** Why an IP address is refused ("a loopback address"), or null when it may be called (or is no IP). */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = net.isIP(bare);
  if (family === 4) return ipv4Words(ipaddr.IPv4.parse(bare));
  if (family === 6) return ipv6Words(ipaddr.IPv6.parse(canonicalIPv6(bare)));
  return null;
}

/**
 * An IPv6 address as the URL standard writes it (hex groups, no zone): ipaddr.js reads the
 * dotted tail of `::127.0.0.1` as IPv4-mapped, which it is not.
 */
function canonicalIPv6(address: string): string {
  return new URL(`http://[${address.replace(/%.*$/, "")}]`).hostname.slice(1, -1);
}

/** Why a host name is refused without resolving it: `localhost` and `*.localhost`, any case, trailing dot or not. */
export function refusedName(host: string): string | null {
  const name = host.toLowerCase().replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost") ? "a name for this machine (loopback)" : null;
}
