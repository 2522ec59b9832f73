import { useMutation } from "@tanstack/react-query";
import { onUnauthorized } from "@/lib/browser/unauthorized";
import { rememberChannel } from "@/lib/browser/local-store";
import { fetchNewestLogs } from "@/lib/browser/queries";
import { sendTestMessage } from "@/lib/browser/send-message";
import type { FollowTarget } from "@/lib/domain/follow";
import type { SendMessageForm } from "@/lib/domain/inputs/send-message";

export interface SendOutcome {
  messageId: string | null;
  answer: unknown;
  target: FollowTarget;
}

/**
 * Sends a test message: first lists the newest logs (to tell the new ones apart when the answer
 * names no message ID), then sends, and hands the send to `onSent` to follow. A 401 ends the
 * session, as it does for every query.
 */
export function useSendMessage(webhookId: string, onSent: (target: FollowTarget) => void) {
  return useMutation({
    mutationFn: async (form: SendMessageForm): Promise<SendOutcome> => {
      const before = await fetchNewestLogs(webhookId).catch(() => null);
      const sentAt = Date.now();
      const answer = await sendTestMessage(form);
      const knownIds = before ? new Set(before.map((log) => log.id)) : null;
      return { ...answer, target: { messageId: answer.messageId, knownIds, sentAt } };
    },
    onSuccess: (outcome, form) => {
      rememberChannel({ channelKind: form.channelKind, from: form.from });
      onSent(outcome.target);
    },
    onError: onUnauthorized,
  });
}
