import { AppError, isAppError } from "@/lib/server/app-error";
import { checkApiKey, type HubCall } from "@/lib/server/hub/client";

/**
 * Asks the hub whether it accepts a key the person wants to keep. A 401 becomes a 400 on the
 * `apiKey` field (the session is not ended: it is the new key that is wrong); any other failure
 * (hub unreachable, slow, 5xx) is answered as it is. Either way nothing is stored.
 */
export async function checkNewKey(call: HubCall): Promise<void> {
  try {
    await checkApiKey(call);
  } catch (error) {
    if (isAppError(error) && error.code === "unauthorized") {
      const message =
        "The Messaging Hub rejected this key (HTTP 401): it is mistyped, or it was rotated or revoked. Nothing was stored.";
      throw new AppError("bad_request", message, { fields: { apiKey: [message] } });
    }
    throw error;
  }
}
