import { APPLICATIONS_PATH, endSession, isApiError } from "@/lib/browser/api";

/**
 * A 401 means the session ended or the hub rejected the key: sign in again. `key_rejected`: the
 * hub rejected one of several applications' keys; the Applications page marks it, with Replace key.
 */
export function onUnauthorized(error: unknown): void {
  if (!isApiError(error) || error.status !== 401) return;
  if (error.code === "key_rejected") window.location.assign(APPLICATIONS_PATH);
  else endSession("key_rejected");
}
