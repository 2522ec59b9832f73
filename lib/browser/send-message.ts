import { apiRequest } from "@/lib/browser/api";
import { messageBody, type SendMessageForm } from "@/lib/domain/inputs/send-message";

/** What `POST /api/messages/{channelKind}` answers: the hub's answer, and its message id when it names one. */
interface SendMessageAnswer {
  messageId: string | null;
  answer: unknown;
}

export async function sendTestMessage(form: SendMessageForm): Promise<SendMessageAnswer> {
  const answer = await apiRequest<Partial<SendMessageAnswer> | null>(
    `/api/messages/${encodeURIComponent(form.channelKind)}`,
    { method: "POST", body: messageBody(form) },
  );
  return {
    messageId: typeof answer?.messageId === "string" ? answer.messageId : null,
    answer: answer?.answer ?? answer,
  };
}
