import { z } from "zod";
import { APPLICATION_NAME_MAX } from "@/lib/domain/applications";
import { apiKeySchema } from "@/app/api/session/schema";
import { webhookIdSchema } from "@/lib/server/hub/path-params";

/** A name a person gives an application: trimmed, 1 to APPLICATION_NAME_MAX characters. */
export const applicationNameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required: give the application a name, e.g. Staging")
  .max(APPLICATION_NAME_MAX, `Name may be at most ${APPLICATION_NAME_MAX} characters`);

/** An application id as the console's URLs and forms carry it. */
export const applicationIdSchema = z.string().regex(/^[0-9a-f]{16}$/, "is not an application id");

export const addApplicationSchema = z.strictObject({ name: applicationNameSchema, apiKey: apiKeySchema });
export const replaceKeySchema = z.strictObject({ app: applicationIdSchema, apiKey: apiKeySchema });
export const renameSchema = z.strictObject({ app: applicationIdSchema, name: applicationNameSchema });
export const applicationFormSchema = z.strictObject({ app: applicationIdSchema });
export const lookFormSchema = z.strictObject({
  webhookId: webhookIdSchema,
  app: applicationIdSchema.optional(),
});

/** A redirect answer (303: the browser follows it with a GET), for the plain forms. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}
