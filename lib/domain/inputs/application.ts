import { z } from "zod/mini";
import { APPLICATION_NAME_MAX } from "@/lib/domain/applications";
import { apiKeyInput, NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";

/** "Add application", "Replace key" and "Rename": the forms and their routes read these. */

/** A name a person gives an application: trimmed, 1 to APPLICATION_NAME_MAX characters. */
export const applicationNameInput = textInput("Name", "give the application a name, e.g. Staging.").check(
  z.trim(),
  notBlank("Name", "give the application a name, e.g. Staging."),
  maxChars("Name", APPLICATION_NAME_MAX),
);

/** An application id as the console's URLs and forms carry it. */
export const applicationIdInput = z
  .string()
  .check(
    z.regex(
      /^[0-9a-f]{16}$/,
      fieldMessage("Application", "it is not one of yours: reload the Applications page and try again."),
    ),
  );

export const addApplicationSchema = z.strictObject({ name: applicationNameInput, apiKey: apiKeyInput() });
export const replaceKeySchema = z.strictObject({
  app: applicationIdInput,
  apiKey: apiKeyInput(NEW_API_KEY_LABEL),
});
export const renameSchema = z.strictObject({
  app: applicationIdInput,
  name: applicationNameInput,
});
