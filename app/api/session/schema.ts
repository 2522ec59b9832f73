import { z } from "zod";

/**
 * An API key as the sign-in form sends it. Checked loosely (the spec does not show the format):
 * printable ASCII without spaces, 8 to 512 characters. Surrounding whitespace from a paste is
 * trimmed. The messages never repeat the value.
 */
export const API_KEY_MAX = 512;
export const API_KEY_MIN = 8;

export const apiKeySchema = z
  .string({ error: "API key is required" })
  .trim()
  .min(1, "API key is required")
  .min(API_KEY_MIN, `API key must be at least ${API_KEY_MIN} characters`)
  .max(API_KEY_MAX, `API key may be at most ${API_KEY_MAX} characters`)
  .regex(/^[\x21-\x7e]+$/, "API key may contain only printable ASCII characters, without spaces");

export const signInSchema = z.strictObject({ apiKey: apiKeySchema });
export type SignIn = z.infer<typeof signInSchema>;

/** What every session route answers. The key itself is never in it. */
export interface SessionAnswer {
  signedIn: boolean;
  /** Last 4 characters of the key, or null (signed out, or a key too short to hint). */
  keyHint: string | null;
}

/** The answer once signed in: the key's hint only ("" for a short key becomes null). */
export function signedInAnswer(data: { keyHint: string }): SessionAnswer {
  return { signedIn: true, keyHint: data.keyHint || null };
}
