import "server-only";
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Sealing an API key at rest: AES-256-GCM (authenticated encryption) under a key derived (HKDF)
 * from a secret of the environment, with its own label so the secret serves no other job as is.
 * Several secrets may open (rotation); the newest seals. A sealed value names the key that
 * sealed it by a short fingerprint, so opening picks it without trial.
 *
 * Format: `v1.<key fingerprint>.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
const LABEL = "hub-console watch key seal";
const AAD = Buffer.from("hub-console watched application key v1");

interface SealKey {
  id: string;
  key: Buffer;
}

export interface Sealer {
  seal(plain: string): string;
  /** The plain text, and whether a key other than the newest sealed it (so it should be sealed again). */
  open(sealed: string): { plain: string; stale: boolean } | null;
}

function deriveKey(secret: string): SealKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "", LABEL, 32));
  const id = createHmac("sha256", key).update("key id").digest("base64url").slice(0, 8);
  return { id, key };
}

/** A sealer over `secrets`, newest first (at least one). */
export function createSealer(secrets: readonly string[]): Sealer {
  if (secrets.length === 0) throw new Error("a sealer needs at least one secret");
  const keys = secrets.map(deriveKey);
  const newest = keys[0]!;
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", newest.key, iv);
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url"));
      return ["v1", newest.id, ...parts].join(".");
    },
    open(sealed) {
      const [version, id, iv, tag, body] = sealed.split(".");
      const key = keys.find((candidate) => candidate.id === id);
      if (version !== "v1" || !key || iv === undefined || tag === undefined || body === undefined)
        return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
        decipher.setAAD(AAD);
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        const plain = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
        return { plain: plain.toString("utf8"), stale: key !== newest };
      } catch {
        return null;
      }
    },
  };
}
