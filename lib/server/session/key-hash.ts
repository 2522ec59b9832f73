import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import { sessionSecrets } from "@/lib/server/session/session";

/**
 * A keyed hash of an API key: what caches, coalescing and identifiers hold instead of the key.
 * HMAC-SHA256 under a key derived (HKDF) from the newest SESSION_SECRET with its own label, so
 * the session secret itself is not used for a second job. Instances sharing SESSION_SECRET
 * compute the same hash; without the secret it reveals nothing about the key.
 */
let derived: { secret: string; key: Buffer } | undefined;

function hashKey(): Buffer {
  const secret = sessionSecrets()[0]!;
  if (derived?.secret === secret) return derived.key;
  const key = Buffer.from(hkdfSync("sha256", secret, "", "hub-console api-key hash", 32));
  derived = { secret, key };
  return key;
}

/** 43 characters of base64url; equal keys give equal hashes, different keys never collide in practice. */
export function apiKeyHash(apiKey: string): string {
  return createHmac("sha256", hashKey()).update(apiKey).digest("base64url");
}
