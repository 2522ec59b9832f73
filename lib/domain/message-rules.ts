/**
 * Browser-side checks of the send-test-message form, in plain TypeScript (no zod in client
 * bundles). The server checks again with `sendMessageSchema`; both read the limits of `api-limits.ts`.
 */
import { MESSAGE_TEXT_MAX, MESSAGE_TO_MAX, isChannelKind, isUuidShape } from "@/lib/domain/api-limits";

export interface MessageFormValues {
  channelKind: string;
  from: string;
  to: string;
  text: string;
}

export type MessageFormErrors = Partial<Record<keyof MessageFormValues, string>>;

export function validateMessageForm(values: MessageFormValues): MessageFormErrors {
  const errors: MessageFormErrors = {};
  const kind = values.channelKind.trim();
  if (!kind) errors.channelKind = 'Enter the channel kind, for example "whatsapp".';
  else if (!isChannelKind(kind))
    errors.channelKind =
      "A channel kind is 1 to 32 lowercase letters, digits or dashes, starting with a letter.";

  const from = values.from.trim();
  if (!from) errors.from = "Enter the channel ID to send from.";
  else if (!isUuidShape(from)) errors.from = "A channel ID is a UUID: 8-4-4-4-12 hexadecimal digits.";

  const to = values.to.trim();
  if (!to) errors.to = "Enter the recipient.";
  else if (to.length > MESSAGE_TO_MAX)
    errors.to = `The recipient may be at most ${MESSAGE_TO_MAX} characters.`;

  if (!values.text.trim()) errors.text = "Enter the text of the message.";
  else if (values.text.length > MESSAGE_TEXT_MAX)
    errors.text = `The text may be at most ${MESSAGE_TEXT_MAX} characters.`;
  return errors;
}

/** The body of `POST /api/messages/{channelKind}`. */
export function messageBody(values: MessageFormValues): {
  from: string;
  to: string;
  content: { text: string };
} {
  return { from: values.from.trim(), to: values.to.trim(), content: { text: values.text } };
}
