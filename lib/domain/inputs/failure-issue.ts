import { z } from "zod/mini";
import { ISSUE_ACTIONS } from "@/lib/domain/watch/failure-issue";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";
import { uuidParam, webhookIdInput } from "@/lib/domain/inputs/uuid";

/** The labels of the issue form's fields, as a person sees them (and as every error names them). */
export const ISSUE_LABELS = { name: "Your name", note: "Note", action: "Action" } as const;

export const ISSUE_NAME_MAX = 80;
export const ISSUE_NOTE_MAX = 1000;

const NAME_WHAT = "type your name, so the team knows who did this.";
const NOTE_WHAT = 'say what is being done about it, e.g. "Customer is redeploying their endpoint".';

export const issueNameInput = textInput(ISSUE_LABELS.name, NAME_WHAT).check(
  z.trim(),
  notBlank(ISSUE_LABELS.name, NAME_WHAT),
  maxChars(ISSUE_LABELS.name, ISSUE_NAME_MAX),
);

export const issueNoteInput = textInput(ISSUE_LABELS.note, "enter text.").check(
  z.trim(),
  maxChars(ISSUE_LABELS.note, ISSUE_NOTE_MAX),
);

/** `GET /api/issues?webhookId=`: every issue of the session's applications, or one webhook's. */
export const issuesQuerySchema = z.strictObject({ webhookId: z.optional(webhookIdInput) });

export const issueParamsSchema = z.strictObject({ issueId: uuidParam("Issue ID", "failure issue ID") });

/**
 * `POST /api/issues/{issueId}` `{ action, name, note }`: a person's change of an issue. Every
 * action records the name typed; acknowledging also needs a note (what is being done).
 */
export const issueChangeSchema = z.discriminatedUnion(
  "action",
  [
    z.strictObject({
      action: z.literal("acknowledge"),
      name: issueNameInput,
      note: issueNoteInput.check(notBlank(ISSUE_LABELS.note, NOTE_WHAT)),
    }),
    z.strictObject({
      action: z.enum(
        ISSUE_ACTIONS.filter((action) => action !== "acknowledge") as ["resolve", "ignore", "reopen"],
      ),
      name: issueNameInput,
      note: z._default(issueNoteInput, ""),
    }),
  ],
  { error: fieldMessage(ISSUE_LABELS.action, `choose one of ${ISSUE_ACTIONS.join(", ")}.`) },
);
