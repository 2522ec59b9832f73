import "server-only";
import { isLoopbackAddress } from "@/lib/domain/loopback-address";
import { peerAddress } from "@/lib/server/http/arrival";

/**
 * Whether a request comes from this machine and was not passed on by a proxy: its connection's
 * remote address is loopback (arrival.ts reads it from the socket, which no header can forge),
 * and no forwarding header names anyone else. A proxy on this machine connects from loopback
 * too, but adds the outside client's address to `X-Forwarded-For` (or `Forwarded`,
 * `X-Real-IP`), so its requests do not pass. Next writes the socket's address into
 * `X-Forwarded-For` when the request has none, so a direct local call carries a loopback one.
 */
export function isLocalCaller(request: Request, peer = peerAddress()): boolean {
  if (!isLoopbackAddress(peer)) return false;
  if (request.headers.has("forwarded") || request.headers.has("x-real-ip")) return false;
  const forwarded = request.headers.get("x-forwarded-for");
  return forwarded === null || forwarded.split(",").every((entry) => isLoopbackAddress(entry.trim()));
}
