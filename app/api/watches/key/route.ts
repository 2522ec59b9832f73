import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { keyHandOverSchema } from "@/lib/domain/inputs/hand-over";
import { replaceAndHandOver } from "@/app/api/applications/hand-over-key";

/**
 * Hands a new key over to a watched application whose key the hub rejects (the Overview's form)
 * `{ app, apiKey, keepDestinations? }`: the session must hold that application (its old key; else
 * not found). The new key is checked with the hub, then must read every webhook the application
 * watches. Without `keepDestinations` the answer lists what would move and nothing changes; with
 * them, the watches, rules, snoozes, quiet hours and the kept destinations move, and the session's
 * key is replaced (see replaceAndHandOver). Counted by the sign-in limiter (it is a way to try keys).
 */
export const POST = defineRoute({
  body: keyHandOverSchema,
  rateLimit: signInLimiter,
  handle: (input) => replaceAndHandOver(input, { storeRequired: true }),
});
