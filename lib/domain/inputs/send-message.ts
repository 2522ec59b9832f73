import { z } from "zod/mini";
import { CHANNEL_KIND_PATTERN, MESSAGE_TEXT_MAX, MESSAGE_TO_MAX } from "@/lib/domain/api-limits";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";
import { uuidInput } from "@/lib/domain/inputs/uuid";

/**
 * "Send a test message": the form's fields and `POST /api/messages/{channelKind}`
 * (`{ from, to, content: { text } }`) read the same field schemas.
 */

export const CHANNEL_KIND_MAX = 32;

export const channelKindInput = textInput(
  "Channel kind",
  'enter the channel\'s kind, e.g. "whatsapp".',
).check(
  z.trim(),
  notBlank("Channel kind", 'enter the channel\'s kind, e.g. "whatsapp".'),
  maxChars("Channel kind", CHANNEL_KIND_MAX),
  z.regex(
    new RegExp(`^${CHANNEL_KIND_PATTERN}$`),
    fieldMessage(
      "Channel kind",
      'use lowercase letters, digits or dashes, starting with a letter, e.g. "whatsapp".',
    ),
  ),
);

export const channelIdInput = uuidInput("From (channel ID)");

export const recipientInput = textInput("To", "enter the recipient.").check(
  z.trim(),
  notBlank("To", "enter the recipient."),
  maxChars("To", MESSAGE_TO_MAX),
);

/** The text is sent as typed (not trimmed), but it must not be blank. */
export const messageTextInput = textInput("Text", "enter the text of the message.").check(
  notBlank("Text", "enter the text of the message."),
  maxChars("Text", MESSAGE_TEXT_MAX),
);

/** The body of `POST /api/messages/{channelKind}`; fields it does not name are dropped. */
export const messageBodySchema = z.object({
  from: channelIdInput,
  to: recipientInput,
  content: z.object(
    { text: messageTextInput },
    { error: fieldMessage("Text", "enter the text of the message.") },
  ),
});
export type MessageBody = z.infer<typeof messageBodySchema>;

/** The form, field by field: the channel kind goes into the path, the rest into the body. */
export const sendMessageFormSchema = z.object({
  channelKind: channelKindInput,
  from: channelIdInput,
  to: recipientInput,
  text: messageTextInput,
});
export type SendMessageForm = z.infer<typeof sendMessageFormSchema>;
export type SendMessageFormValues = z.input<typeof sendMessageFormSchema>;

/** The form's field for each field of the API's body (`content.text` is "text"). */
export const FORM_FIELD_OF: Record<string, keyof SendMessageForm> = {
  channelKind: "channelKind",
  from: "from",
  to: "to",
  "content.text": "text",
};

export function messageBody(form: SendMessageForm): MessageBody {
  return { from: form.from, to: form.to, content: { text: form.text } };
}
