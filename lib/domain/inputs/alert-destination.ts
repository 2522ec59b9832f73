import { z } from "zod/mini";
import { PAGERDUTY_REGIONS, type UrlKind } from "@/lib/domain/alerts/destinations";
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
  routingKey: "PagerDuty routing key",
  region: "Region",
  teamsUrl: "Teams Workflows webhook URL",
  discordUrl: "Discord webhook URL",
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

/** An Events API v2 integration's routing key: 32 letters and digits, as PagerDuty shows it. */
const routingKeyInput = textInput(
  DESTINATION_LABELS.routingKey,
  "paste the Integration Key of the service's Events API v2 integration.",
).check(
  z.trim(),
  notBlank(
    DESTINATION_LABELS.routingKey,
    "paste the Integration Key of the service's Events API v2 integration (Service → Integrations).",
  ),
  z.regex(/^[A-Za-z0-9]{32}$/, {
    error: fieldMessage(
      DESTINATION_LABELS.routingKey,
      "paste the 32 letters and digits of the Integration Key of an Events API v2 integration (Service → Integrations).",
    ),
  }),
);

const regionInput = z._default(
  z.enum(PAGERDUTY_REGIONS, {
    error: fieldMessage(DESTINATION_LABELS.region, "choose US or EU: where the PagerDuty account lives."),
  }),
  "us",
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
    z.strictObject({
      kind: z.literal("pagerduty"),
      label: labelInput,
      routingKey: routingKeyInput,
      region: regionInput,
    }),
    z.strictObject({
      kind: z.literal("teams"),
      label: labelInput,
      url: urlInput(DESTINATION_LABELS.teamsUrl, "https://…logic.azure.com/workflows/…"),
    }),
    z.strictObject({
      kind: z.literal("discord"),
      label: labelInput,
      url: urlInput(DESTINATION_LABELS.discordUrl, "https://discord.com/api/webhooks/…"),
    }),
  ],
  {
    error: fieldMessage(
      DESTINATION_LABELS.kind,
      "choose Slack, Signed JSON webhook, Email, PagerDuty, Microsoft Teams or Discord.",
    ),
  },
);
export type AddDestination = z.infer<typeof addDestinationSchema>;

const URL_LABELS: Record<UrlKind, string> = {
  slack: DESTINATION_LABELS.slackUrl,
  webhook: DESTINATION_LABELS.url,
  teams: DESTINATION_LABELS.teamsUrl,
  discord: DESTINATION_LABELS.discordUrl,
};

/** The label of the URL field of a kind that has one, as the form shows it and errors name it. */
export function urlFieldLabel(kind: UrlKind): string {
  return URL_LABELS[kind];
}

export const destinationParamsSchema = z.strictObject({
  destinationId: uuidParam("Destination ID", "destination ID"),
});
