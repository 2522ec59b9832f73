import { apiRequest } from "@/lib/browser/api";
import { messageBody, type MessageFormValues } from "@/lib/domain/message-rules";

/** What `POST /api/messages/{channelKind}` answers: the hub's answer, and its message id when it names one. */
interface SendMessageAnswer {
  messageId: string | null;
  answer: unknown;
}

export async function sendTestMessage(values: MessageFormValues): Promise<SendMessageAnswer> {
  const answer = await apiRequest<Partial<SendMessageAnswer> | null>(
    `/api/messages/${encodeURIComponent(values.channelKind.trim())}`,
    {
      method: "POST",
      body: messageBody(values),
    },
  );
  return {
    messageId: typeof answer?.messageId === "string" ? answer.messageId : null,
    answer: answer?.answer ?? answer,
  };
}
