import { z } from "zod";
import { applicationIdInput } from "@/lib/domain/inputs/application";
import { webhookIdSchema } from "@/lib/server/hub/path-params";

/** The plain forms of the Applications page and "Look in my other applications". */
export const applicationFormSchema = z.strictObject({ app: applicationIdInput });
export const lookFormSchema = z.strictObject({
  webhookId: webhookIdSchema,
  app: z.optional(applicationIdInput),
});

/** A redirect answer (303: the browser follows it with a GET), for the plain forms. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}
