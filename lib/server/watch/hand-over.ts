import "server-only";

/**
 * Handing a new key over to a watched application whose key was rotated or rejected: checks
 * with the hub that the new key reads every webhook the application watches (else
 * `bad_request` on `apiKey`, naming the first it cannot read, and nothing changes), then moves
 * the watches, their names and history to the new key (`WatchStore.replaceKey`).
 */
export async function handOverKey(oldAppId: string, newApiKey: string): Promise<{ appId: string }> {
  void oldAppId;
  void newApiKey;
  throw new Error("not yet");
}
