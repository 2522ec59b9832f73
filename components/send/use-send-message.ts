import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "@/lib/browser/api";
import { onUnauthorized } from "@/lib/browser/query-client";
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

/** Where one send is: nothing yet, on its way, failed (with why) or sent (with what the hub answered). */
export type SendState =
  | { status: "idle" }
  | { status: "pending" }
  | { status: "error"; error: Error }
  | { status: "success"; data: SendOutcome };

/**
 * Sends a test message: first lists the newest logs (to tell the new ones apart when the answer
 * names no message ID), then sends, and hands the send to `onSent` to follow. A plain state
 * machine rather than React Query's useMutation: one form uses it, and useMutation's observer
 * would cost the page's first load about 0.5 kB gzip that its budget does not have.
 */
export function useSendMessage(
  webhookId: string,
  {
    onSent,
    onFieldErrors,
  }: { onSent: (target: FollowTarget) => void; onFieldErrors: (errors: MessageFormErrors) => void },
) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SendState>({ status: "idle" });

  async function send(input: MessageFormValues): Promise<void> {
    setState({ status: "pending" });
    try {
      const before = await queryClient
        .fetchQuery({ ...logsQueryOptions(webhookId, FOLLOW_VIEW), staleTime: 0 })
        .catch(() => null);
      const sentAt = Date.now();
      const answer = await sendTestMessage(input);
      const knownIds = before ? new Set(before.data.map((log) => log.id)) : null;
      const data = { ...answer, target: { messageId: answer.messageId, knownIds, sentAt } };
      rememberChannel({ channelKind: input.channelKind.trim(), from: input.from.trim() });
      onSent(data.target);
      setState({ status: "success", data });
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      onUnauthorized(error);
      const errors = formErrorsOf(error);
      if (errors) onFieldErrors(errors);
      setState({ status: "error", error });
    }
  }

  return { send: (input: MessageFormValues) => void send(input), state };
}
