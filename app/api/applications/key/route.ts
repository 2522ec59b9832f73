import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { keyHandOverSchema } from "@/lib/domain/inputs/hand-over";
import { replaceAndHandOver } from "@/app/api/applications/hand-over-key";

/**
 * Replaces an application's key `{ app, apiKey, keepDestinations? }` (after a rotation): checked
 * with the hub first; when the watch store keeps the application's watches, the answer first
 * lists what the new key would take over, and a second call with the destinations to keep hands
 * it all over (see replaceAndHandOver). Then the key is kept, its id follows the new key, and the
 * "key rejected" mark goes. Counted by the sign-in limiter (it is a way to try keys).
 */
export const POST = defineRoute({
  body: keyHandOverSchema,
  rateLimit: signInLimiter,
  handle: (input) => replaceAndHandOver(input, { storeRequired: false }),
});
