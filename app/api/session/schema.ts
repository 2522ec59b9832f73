/** The body of `POST /api/session`: the one schema the sign-in form checks with too. */
export { signInSchema } from "@/lib/domain/inputs/api-key";

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
