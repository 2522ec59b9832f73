"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { ApiError, isApiError } from "@/lib/browser/api";
import { rememberChannel, useLastChannel } from "@/lib/browser/local-store";
import { CHANNEL_KIND_PATTERN, MESSAGE_TEXT_MAX, MESSAGE_TO_MAX } from "@/lib/domain/api-limits";
import {
  validateMessageForm,
  type MessageFormErrors,
  type MessageFormValues,
} from "@/lib/domain/message-rules";
import { sendTestMessage } from "@/lib/browser/send-message";
import { FOLLOW_TIMEOUT_MS, FOLLOW_VIEW, type FollowTarget } from "@/lib/domain/follow";
import { logsQueryOptions } from "@/lib/browser/queries";
import { statusMeaning } from "@/lib/domain/status-meaning";
import type { FollowState } from "@/components/send/use-follow-deliveries";
import { StatusBadge } from "@/components/logs/status-badge";
import { Notice } from "@/components/ui/notice";

export interface DemoChannelOption {
  id: string;
  kind: string;
}

type Field = keyof MessageFormValues;
const FIELDS: Field[] = ["channelKind", "from", "to", "text"];
/** The API's field names (`content.text`) to the form's. */
const API_FIELD: Record<string, Field> = {
  channelKind: "channelKind",
  from: "from",
  to: "to",
  text: "text",
  "content.text": "text",
};

interface SendOutcome {
  messageId: string | null;
  answer: unknown;
}

let sendCounter = 0;

/**
 * Sends a test message through the hub (`POST /api/messages/{channelKind}`), then follows it:
 * the outcome, and later the deliveries it caused, are announced in the status region.
 */
export function SendMessageForm({
  webhookId,
  webhookActive,
  demoChannels,
  follow,
  onSent,
  onShowDelivery,
}: {
  webhookId: string;
  webhookActive: boolean;
  demoChannels: DemoChannelOption[];
  follow: FollowState;
  onSent: (target: FollowTarget) => void;
  onShowDelivery: (logId: string) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const lastChannel = useLastChannel();
  const formRef = useRef<HTMLFormElement>(null);
  const demo = demoChannels[0];
  const defaults: MessageFormValues = {
    channelKind: lastChannel?.channelKind ?? demo?.kind ?? "",
    from: lastChannel?.from ?? demo?.id ?? "",
    to: demo ? "5511999990000" : "",
    text: "Test message from the Webhook Console",
  };
  // What the person typed; untouched fields show the defaults (which arrive after mount from localStorage).
  const [edited, setEdited] = useState<Partial<MessageFormValues>>({});
  const values: MessageFormValues = { ...defaults, ...edited };
  const [errors, setErrors] = useState<MessageFormErrors>({});

  const mutation = useMutation({
    mutationFn: async (input: MessageFormValues): Promise<SendOutcome & { target: FollowTarget }> => {
      // Which logs exist before sending, to tell the new ones apart when the answer names no message id.
      const before = await queryClient
        .fetchQuery({ ...logsQueryOptions(webhookId, FOLLOW_VIEW), staleTime: 0 })
        .catch(() => null);
      const sentAt = Date.now();
      const answer = await sendTestMessage(input);
      return {
        ...answer,
        target: {
          sendId: ++sendCounter,
          messageId: answer.messageId,
          knownIds: before ? new Set(before.data.map((log) => log.id)) : null,
          sentAt,
        },
      };
    },
    onSuccess: (result, input) => {
      rememberChannel({ channelKind: input.channelKind.trim(), from: input.from.trim() });
      onSent(result.target);
    },
    onError: (error) => {
      if (isApiError(error) && error.fields) {
        const fieldErrors: MessageFormErrors = {};
        for (const [name, messages] of Object.entries(error.fields)) {
          const field = API_FIELD[name];
          if (field) fieldErrors[field] = messages.join(" ");
        }
        setErrors(fieldErrors);
      }
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateMessageForm(values);
    setErrors(found);
    const firstInvalid = FIELDS.find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    mutation.mutate(values);
  }

  function field(name: Field) {
    return {
      id: `${id}-${name}`,
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) => {
        setEdited((current) => ({ ...current, [name]: event.target.value }));
        if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
      },
      "aria-invalid": errors[name] ? true : undefined,
      "aria-describedby": [errors[name] ? `${id}-${name}-error` : "", `${id}-${name}-hint`]
        .filter(Boolean)
        .join(" "),
    } as const;
  }

  function errorText(name: Field) {
    return errors[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="card space-y-3 p-4">
      <div>
        <h2 id={`${id}-heading`} className="text-base font-semibold">
          Send a test message
        </h2>
        <p className="field-hint">
          The hub delivers a Message event to every active webhook of the key&apos;s application; this page
          then follows the delivery to this webhook.
        </p>
      </div>
      <form
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-1"
        aria-labelledby={`${id}-heading`}
      >
        <div className="space-y-1">
          <label htmlFor={`${id}-channelKind`} className="field-label">
            Channel kind
          </label>
          <input
            {...field("channelKind")}
            type="text"
            required
            pattern={CHANNEL_KIND_PATTERN}
            maxLength={32}
            autoComplete="off"
            spellCheck={false}
            className="field-input"
          />
          <p id={`${id}-channelKind-hint`} className="field-hint">
            The path segment of the channel&apos;s kind, e.g. whatsapp.
          </p>
          {errorText("channelKind")}
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-from`} className="field-label">
            From (channel ID)
          </label>
          <input
            {...field("from")}
            type="text"
            required
            maxLength={36}
            autoComplete="off"
            spellCheck={false}
            className="field-input font-mono"
          />
          <p id={`${id}-from-hint`} className="field-hint">
            {demoChannels.length > 0
              ? `Sandbox demo channels (demo key): ${demoChannels.map((channel) => `${channel.id} (${channel.kind})`).join(", ")}.`
              : "The UUID of a channel of this key's application."}
          </p>
          {errorText("from")}
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-to`} className="field-label">
            To
          </label>
          <input
            {...field("to")}
            type="text"
            required
            maxLength={MESSAGE_TO_MAX}
            autoComplete="off"
            inputMode="tel"
            className="field-input"
          />
          <p id={`${id}-to-hint`} className="field-hint">
            The recipient on the channel, e.g. a phone number.
          </p>
          {errorText("to")}
        </div>
        <div className="space-y-1 sm:col-span-2 lg:col-span-3 2xl:col-span-1">
          <label htmlFor={`${id}-text`} className="field-label">
            Text
          </label>
          <textarea
            {...field("text")}
            required
            maxLength={MESSAGE_TEXT_MAX}
            rows={2}
            className="field-input"
          />
          <p id={`${id}-text-hint`} className="field-hint">
            Up to {MESSAGE_TEXT_MAX.toLocaleString("en")} characters.
          </p>
          {errorText("text")}
        </div>
        <div className="sm:col-span-2 lg:col-span-3 2xl:col-span-1">
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Sending…" : "Send test message"}
          </button>
        </div>
      </form>
      <div role="status" className="space-y-2 text-sm">
        {mutation.isPending ? <p>Sending the message to the Messaging Hub…</p> : null}
        {mutation.isError ? <SendError error={mutation.error} /> : null}
        {mutation.isSuccess ? (
          <SendResult
            outcome={mutation.data}
            follow={follow}
            webhookActive={webhookActive}
            onShowDelivery={onShowDelivery}
          />
        ) : null}
      </div>
    </section>
  );
}

function SendError({ error }: { error: Error }) {
  const message = error instanceof ApiError ? error.message : "The message could not be sent. Try again.";
  const retryAfter = error instanceof ApiError ? error.retryAfter : null;
  return (
    <Notice tone="error" title="Not sent">
      <p>{message}</p>
      {retryAfter ? <p>Try again in about {retryAfter} seconds.</p> : null}
    </Notice>
  );
}

function SendResult({
  outcome,
  follow,
  webhookActive,
  onShowDelivery,
}: {
  outcome: SendOutcome & { target: FollowTarget };
  follow: FollowState;
  webhookActive: boolean;
  onShowDelivery: (logId: string) => void;
}) {
  const current = follow.target?.sendId === outcome.target.sendId;
  return (
    <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-50">
      <p>
        <span className="font-semibold">Sent.</span>{" "}
        {outcome.messageId ? (
          <>
            The Messaging Hub accepted it as message{" "}
            <span className="font-mono text-xs break-all">{outcome.messageId}</span>.
          </>
        ) : (
          "The Messaging Hub accepted it (its answer named no message ID)."
        )}
      </p>
      <details className="text-xs">
        <summary className="w-fit cursor-pointer">What the API answered</summary>
        <pre className="mt-1 overflow-x-auto whitespace-pre-wrap">
          {JSON.stringify(outcome.answer, null, 2) ?? "(no body)"}
        </pre>
      </details>
      {current && follow.phase === "waiting" ? (
        <p>
          Waiting for its delivery to this webhook (up to {FOLLOW_TIMEOUT_MS / 1000} s)…
          {!webhookActive ? " This webhook is inactive, so none may come." : ""}
        </p>
      ) : null}
      {current && follow.phase === "landed" ? (
        <Landed deliveries={follow.deliveries} onShowDelivery={onShowDelivery} />
      ) : null}
      {current && follow.phase === "timed_out" ? (
        <p className="text-amber-900 dark:text-amber-200">
          No delivery of this message reached this webhook&apos;s log within {FOLLOW_TIMEOUT_MS / 1000}{" "}
          seconds.{" "}
          {webhookActive
            ? "The hub may still be trying (a slow endpoint takes until its delivery timeout); turn on Auto-refresh to keep watching."
            : "This webhook is inactive, so the hub does not deliver to it."}
        </p>
      ) : null}
    </div>
  );
}

function Landed({
  deliveries,
  onShowDelivery,
}: {
  deliveries: WebhookLog[];
  onShowDelivery: (logId: string) => void;
}) {
  return (
    <div className="space-y-1">
      <p className="font-semibold">
        {deliveries.length === 1 ? "Its delivery has landed" : `${deliveries.length} deliveries have landed`};
        highlighted in the log table.
      </p>
      <ul className="space-y-1">
        {deliveries.map((log) => {
          const meaning = statusMeaning(log.statusCode);
          return (
            <li key={log.id} className="flex flex-wrap items-center gap-2">
              <StatusBadge status={log.status} />
              <span>
                {meaning.title}
                {log.status === "Failed" ? ` — ${meaning.cause}` : ""}
              </span>
              <button type="button" className="btn btn-small" onClick={() => onShowDelivery(log.id)}>
                Details<span className="sr-only"> of this delivery</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
