/**
 * Whether a socket's remote address (as Node writes it) is this machine: 127.0.0.0/8, ::1, or
 * 127.x mapped into IPv6. The sandbox's admin routes and the console's /metrics answer such
 * callers without a token.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  return (
    address !== undefined &&
    (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."))
  );
}
