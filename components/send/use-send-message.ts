import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isApiError } from "@/lib/browser/api";
import { rememberChannel } from "@/lib/browser/local-store";
import { logsQueryOptions } from "@/lib/browser/queries";
import { sendTestMessage } from "@/lib/browser/send-message";
import { FOLLOW_VIEW, type FollowTarget } from "@/lib/domain/follow";
import type { MessageFormErrors, MessageFormValues } from "@/lib/domain/message-rules";

export interface SendOutcome {
  messageId: string | null;
  answer: unknown;
  target: FollowTarget;
}

/** The API's field names (`content.text`) to the form's. */
const API_FIELD: Record<string, keyof MessageFormValues> = {
  channelKind: "channelKind",
  from: "from",
  to: "to",
  text: "text",
  "content.text": "text",
};

/** The field errors of a 400 answer, named as the form names its fields. */
function formErrorsOf(error: Error): MessageFormErrors | null {
  if (!isApiError(error) || !error.fields) return null;
  const errors: MessageFormErrors = {};
  for (const [name, messages] of Object.entries(error.fields)) {
    const field = API_FIELD[name];
    if (field) errors[field] = messages.join(" ");
  }
  return errors;
}

/**
 * Sends a test message: first lists the newest logs (to tell the new ones apart when the answer
 * names no message ID), then sends, and hands the send to `onSent` to follow.
 */
export function useSendMessage(
  webhookId: string,
  {
    onSent,
    onFieldErrors,
  }: { onSent: (target: FollowTarget) => void; onFieldErrors: (errors: MessageFormErrors) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: MessageFormValues): Promise<SendOutcome> => {
      const before = await queryClient
        .fetchQuery({ ...logsQueryOptions(webhookId, FOLLOW_VIEW), staleTime: 0 })
        .catch(() => null);
      const sentAt = Date.now();
      const answer = await sendTestMessage(input);
      const knownIds = before ? new Set(before.data.map((log) => log.id)) : null;
      return { ...answer, target: { messageId: answer.messageId, knownIds, sentAt } };
    },
    onSuccess: (result, input) => {
      rememberChannel({ channelKind: input.channelKind.trim(), from: input.from.trim() });
      onSent(result.target);
    },
    onError: (error) => {
      const errors = formErrorsOf(error);
      if (errors) onFieldErrors(errors);
    },
  });
}
