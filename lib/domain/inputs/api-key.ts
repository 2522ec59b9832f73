import { z } from "zod/mini";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";

/**
 * An API key as sign-in and the Applications page take it. Checked loosely (the spec does not
 * show the format): printable ASCII without spaces, 8 to 512 characters; the spaces of a paste
 * around it are trimmed. The messages never repeat the value.
 */
export const API_KEY_MIN = 8;
export const API_KEY_MAX = 512;
export const API_KEY_HINT = `${API_KEY_MIN} to ${API_KEY_MAX} characters, from the Messaging Hub dashboard.`;

/** The key field's label on sign-in and Add application, and on Replace key and Hand over (a new key). */
export const API_KEY_LABEL = "API key";
export const NEW_API_KEY_LABEL = "New API key";

export function apiKeyInput(label = API_KEY_LABEL) {
  return textInput(label, "enter your API key.").check(
    z.trim(),
    notBlank(label, "enter your API key."),
    z.minLength(API_KEY_MIN, {
      error: fieldMessage(label, `enter at least ${API_KEY_MIN} characters: paste the whole key.`),
      abort: true,
    }),
    maxChars(label, API_KEY_MAX),
    z.regex(
      /^[\x21-\x7e]+$/,
      fieldMessage(label, "use only printable ASCII characters without spaces: paste the key as issued."),
    ),
  );
}

/** The body of `POST /api/session`. */
export const signInSchema = z.strictObject({ apiKey: apiKeyInput() });
export type SignIn = z.infer<typeof signInSchema>;
