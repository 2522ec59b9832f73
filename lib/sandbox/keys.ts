/**
 * API keys and secrets: generating them, hashing keys for storage (only the SHA-256 is kept),
 * and comparing secrets in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Prefix of keys the sandbox generates; the demo key has its own (see seed.ts). */
const API_KEY_PREFIX = "mh_sbx_";

/**
 * What the sandbox accepts as a well-formed key: 16 to 256 visible ASCII characters.
 * Anything else is "malformed" (401, spec part 5). Unknown well-formed keys are 401 too.
 */
const API_KEY_SHAPE = /^[\x21-\x7e]{16,256}$/;

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function generateWebhookSecret(): string {
  return "whsec_" + randomBytes(24).toString("base64url");
}

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a, "utf8").digest();
  const db = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(da, db);
}
