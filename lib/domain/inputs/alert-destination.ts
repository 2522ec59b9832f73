import { z } from "zod/mini";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";
import { uuidParam } from "@/lib/domain/inputs/uuid";

/**
 * "Add destination" on the Alerts page and `POST /api/alerts/destinations`: one schema per kind,
 * chosen by `kind`. The URL's scheme and address are checked again on the server, against the
 * outbound policy (lib/server/alerts/outbound.ts), with these same labels.
 */

export const DESTINATION_LABELS = {
  kind: "Kind",
  label: "Name",
  url: "Webhook URL",
  slackUrl: "Slack webhook URL",
  secret: "Signing secret",
  to: "Email address",
} as const;

export const DESTINATION_LABEL_MAX = 80;
export const DESTINATION_URL_MAX = 2048;
export const DESTINATION_EMAIL_MAX = 254;

const labelInput = textInput(
  DESTINATION_LABELS.label,
  "give the destination a name, e.g. On-call Slack.",
).check(
  z.trim(),
  notBlank(DESTINATION_LABELS.label, "give the destination a name, e.g. On-call Slack."),
  maxChars(DESTINATION_LABELS.label, DESTINATION_LABEL_MAX),
);

function urlInput(label: string, example: string) {
  const what = `paste the address, e.g. ${example}.`;
  return textInput(label, what).check(
    z.trim(),
    notBlank(label, what),
    maxChars(label, DESTINATION_URL_MAX),
    z.refine((value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      error: fieldMessage(label, `enter a whole https:// address, e.g. ${example}.`),
    }),
  );
}

/** Standard Webhooks secrets: `whsec_` and base64 of 24 to 64 bytes. Blank: the console generates one. */
const secretInput = textInput(DESTINATION_LABELS.secret, "leave it blank to have one generated.").check(
  z.trim(),
  z.refine((value: string) => value === "" || /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/.test(value), {
    error: fieldMessage(
      DESTINATION_LABELS.secret,
      "paste a secret starting with whsec_ (base64 of 24 to 64 bytes), or leave it blank to have one generated.",
    ),
  }),
);

const emailInput = textInput(DESTINATION_LABELS.to, "enter the address alerts go to.").check(
  z.trim(),
  notBlank(DESTINATION_LABELS.to, "enter the address alerts go to."),
  maxChars(DESTINATION_LABELS.to, DESTINATION_EMAIL_MAX),
  z.regex(
    /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/,
    fieldMessage(DESTINATION_LABELS.to, "enter one address like oncall@example.com."),
  ),
);

export const addDestinationSchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({
      kind: z.literal("slack"),
      label: labelInput,
      url: urlInput(DESTINATION_LABELS.slackUrl, "https://hooks.slack.com/services/…"),
    }),
    z.strictObject({
      kind: z.literal("webhook"),
      label: labelInput,
      url: urlInput(DESTINATION_LABELS.url, "https://alerts.example.com/hooks/console"),
      secret: z._default(secretInput, ""),
    }),
    z.strictObject({ kind: z.literal("email"), label: labelInput, to: emailInput }),
  ],
  { error: fieldMessage(DESTINATION_LABELS.kind, "choose Slack, Signed JSON webhook or Email.") },
);
export type AddDestination = z.infer<typeof addDestinationSchema>;

/** The label of each field, as errors name it (the URL's depends on the kind). */
export function destinationFieldLabel(kind: AddDestination["kind"], field: "url" | "secret" | "to"): string {
  if (field === "url") return kind === "slack" ? DESTINATION_LABELS.slackUrl : DESTINATION_LABELS.url;
  return DESTINATION_LABELS[field];
}

export const destinationParamsSchema = z.strictObject({
  destinationId: uuidParam("Destination ID", "destination ID"),
});
