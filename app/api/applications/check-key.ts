import { AppError, isAppError } from "@/lib/server/app-error";
import { checkApiKey, type HubCall } from "@/lib/server/hub/client";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { API_KEY_LABEL } from "@/lib/domain/inputs/api-key";

/**
 * Asks the hub whether it accepts a key the person wants to keep. A 401 becomes a 400 on the
 * `apiKey` field (the session is not ended: it is the new key that is wrong); any other failure
 * (hub unreachable, slow, 5xx) is answered as it is. Either way nothing is stored. `label` is the
 * field's, as its other errors name it.
 */
export async function checkNewKey(call: HubCall, label = API_KEY_LABEL): Promise<void> {
  try {
    await checkApiKey(call);
  } catch (error) {
    if (isAppError(error) && error.code === "unauthorized") {
      const message = fieldMessage(
        label,
        "the Messaging Hub rejected this key (HTTP 401): it is mistyped, or it was rotated or revoked. " +
          "Paste the application's current key. Nothing was stored.",
      );
      throw new AppError("bad_request", message, { fields: { apiKey: [message] } });
    }
    throw error;
  }
}
