"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { PartBoundary } from "@/components/ui/part-boundary";
import { useLastChannel } from "@/lib/browser/local-store";
import { MESSAGE_TEXT_MAX, MESSAGE_TO_MAX } from "@/lib/domain/api-limits";
import {
  CHANNEL_KIND_MAX,
  FORM_FIELD_OF,
  sendMessageFormSchema,
  type SendMessageFormValues,
} from "@/lib/domain/inputs/send-message";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { capHint } from "@/lib/domain/inputs/field-message";
import { isApiError } from "@/lib/browser/api";
import type { FollowTarget } from "@/lib/domain/follow";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { useFollowDeliveries } from "@/components/send/use-follow-deliveries";
import { useSendMessage } from "@/components/send/use-send-message";
import { SendError } from "@/components/send/send-error";
import { Field } from "@/components/ui/field";
import { QueryProvider } from "@/components/ui/query-provider";

export interface DemoChannelOption {
  id: string;
  kind: string;
}

/** Shown in place of the result when its chunk could not be loaded (the message was sent all the same). */
function ResultUnavailable() {
  return (
    <p>
      The message was sent, but this page could not load the view of its result: the network failed, or the
      console was updated since this page was opened. Its deliveries show in the log table; reload the page to
      follow them here.
    </p>
  );
}

/** The view of a sent message, a chunk of its own: loaded once a message is sent. */
const SendResult = dynamic(
  () => import("@/components/send/send-result").then((loaded) => loaded.SendResult),
  {
    loading: () => <p>Sent.</p>,
  },
);

type FieldName = keyof SendMessageFormValues;
type FormErrors = Partial<Record<FieldName, string>>;
const FIELDS: FieldName[] = ["channelKind", "from", "to", "text"];

/** The field errors of a 400 answer, named as the form names its fields. */
function formErrorsOf(error: unknown): FormErrors | null {
  if (!isApiError(error) || !error.fields) return null;
  const errors: FormErrors = {};
  for (const [name, messages] of Object.entries(error.fields)) {
    const field = FORM_FIELD_OF[name];
    if (field) errors[field] = messages[0];
  }
  return errors;
}

export interface SendMessageFormProps {
  webhookId: string;
  webhookActive: boolean;
  demoChannels: DemoChannelOption[];
  /** A message was sent: its deliveries are now being looked for. */
  onSent: (target: FollowTarget) => void;
  /** The deliveries of the message last sent are in the webhook's log. */
  onLanded: (deliveries: WebhookLog[]) => void;
  onShowDelivery: (logId: string) => void;
}

/** The form with the query client its sending goes through (a chunk loaded when reached: see QueryProvider). */
export function SendMessageForm(props: SendMessageFormProps) {
  return (
    <QueryProvider>
      <Form {...props} />
    </QueryProvider>
  );
}

/**
 * Sends a test message through the hub (`POST /api/messages/{channelKind}`), then follows it:
 * the outcome, and later the deliveries it caused, are announced in the status region. Its
 * section and heading are SendMessagePart's (`send-heading`).
 */
function Form({
  webhookId,
  webhookActive,
  demoChannels,
  onSent,
  onLanded,
  onShowDelivery,
}: SendMessageFormProps) {
  const lastChannel = useLastChannel();
  const formRef = useRef<HTMLFormElement>(null);
  const demo = demoChannels[0];
  const defaults: SendMessageFormValues = {
    channelKind: lastChannel?.channelKind ?? demo?.kind ?? "",
    from: lastChannel?.from ?? demo?.id ?? "",
    to: demo ? "5511999990000" : "",
    text: "Test message from the Webhook Console",
  };
  // What the person typed; untouched fields show the defaults (which arrive after mount from localStorage).
  const [edited, setEdited] = useState<Partial<SendMessageFormValues>>({});
  const values: SendMessageFormValues = { ...defaults, ...edited };
  const [errors, setErrors] = useState<FormErrors>({});
  const [target, setTarget] = useState<FollowTarget | null>(null);
  const follow = useFollowDeliveries(webhookId, target, onLanded);
  const sending = useSendMessage(webhookId, (sent) => {
    setTarget(sent);
    onSent(sent);
  });
  const statusRef = useRef<HTMLDivElement>(null);

  // The outcome shows under the button the person just pressed, which may sit at the bottom edge
  // of the screen: each step of it (sending, sent or not, landed) is scrolled into view as it
  // grows, including when its result part arrives after the step began.
  const showing = !sending.isIdle;
  useEffect(() => {
    const status = statusRef.current;
    if (!showing || !status) return;
    const observer = new ResizeObserver(() => status.scrollIntoView({ block: "nearest" }));
    observer.observe(status);
    return () => observer.disconnect();
  }, [showing]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = sendMessageFormSchema.safeParse(values);
    const found: FormErrors = parsed.success ? {} : firstErrors(parsed.error);
    setErrors(found);
    const firstInvalid = FIELDS.find((name) => found[name]);
    if (firstInvalid) {
      // The last send's outcome is about other values: only the fields' errors stand now.
      sending.reset();
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    if (!parsed.success) return;
    sending.mutate(parsed.data, {
      onError: (error) => {
        const fromServer = formErrorsOf(error);
        if (fromServer) setErrors(fromServer);
      },
    });
  }

  /** The value and change handler of a field's control. */
  function bind(name: FieldName) {
    return {
      name,
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        setEdited((current) => ({ ...current, [name]: event.target.value }));
        if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
      },
    };
  }

  return (
    <>
      <form
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-1"
        aria-labelledby="send-heading"
      >
        <Field
          label="Channel kind"
          hint={`The path segment of the channel's kind, e.g. whatsapp. ${capHint(CHANNEL_KIND_MAX)}`}
          error={errors.channelKind}
        >
          {(control) => (
            <input
              {...control}
              {...bind("channelKind")}
              type="text"
              required
              autoComplete="off"
              spellCheck={false}
              className="field-input"
            />
          )}
        </Field>
        <Field
          label="From (channel ID)"
          hint={
            demoChannels.length > 0
              ? `Sandbox demo channels (demo key): ${demoChannels.map((channel) => `${channel.id} (${channel.kind})`).join(", ")}.`
              : "The UUID of a channel of this key's application."
          }
          error={errors.from}
        >
          {(control) => (
            <input
              {...control}
              {...bind("from")}
              type="text"
              required
              autoComplete="off"
              spellCheck={false}
              className="field-input font-mono"
            />
          )}
        </Field>
        <Field
          label="To"
          hint={`The recipient on the channel, e.g. a phone number. ${capHint(MESSAGE_TO_MAX)}`}
          error={errors.to}
        >
          {(control) => (
            <input
              {...control}
              {...bind("to")}
              type="text"
              required
              autoComplete="off"
              inputMode="tel"
              className="field-input"
            />
          )}
        </Field>
        <Field
          label="Text"
          hint={capHint(MESSAGE_TEXT_MAX)}
          error={errors.text}
          className="space-y-1 sm:col-span-2 lg:col-span-3 2xl:col-span-1"
        >
          {(control) => <textarea {...control} {...bind("text")} required rows={2} className="field-input" />}
        </Field>
        <div className="sm:col-span-2 lg:col-span-3 2xl:col-span-1">
          <button type="submit" className="btn btn-primary" disabled={sending.isPending}>
            {sending.isPending ? "Sending…" : "Send test message"}
          </button>
        </div>
      </form>
      <div ref={statusRef} role="status" className="space-y-2 text-sm">
        {sending.isPending ? <p>Sending the message to the Messaging Hub…</p> : null}
        {sending.isError ? <SendError error={sending.error} /> : null}
        {sending.isSuccess ? (
          <PartBoundary fallback={<ResultUnavailable />}>
            <SendResult
              outcome={sending.data}
              follow={follow}
              webhookActive={webhookActive}
              onShowDelivery={onShowDelivery}
            />
          </PartBoundary>
        ) : null}
      </div>
    </>
  );
}
