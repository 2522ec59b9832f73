import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import { sessionSecrets } from "@/lib/server/session/secrets";

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
  return keyDigest(apiKey).toString("base64url");
}

/**
 * The identifier of the application a key opens, as URLs carry it (`?app=`): the first 16 hex
 * characters (64 bits) of the keyed hash. Every console sharing SESSION_SECRET derives the same id
 * from the same key, so a link opens the right application for a colleague who added it under
 * another name; without the secret it says nothing about the key. Rotating the newest
 * SESSION_SECRET (or the key) changes it.
 */
export function applicationId(apiKey: string): string {
  return keyDigest(apiKey).toString("hex").slice(0, 16);
}

/** The HMAC of a key under the key derived from the newest SESSION_SECRET: what both forms above encode. */
function keyDigest(apiKey: string): Buffer {
  return createHmac("sha256", hashKey()).update(apiKey).digest();
}
