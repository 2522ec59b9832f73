import { z } from "zod/mini";
import { BULK_LINES_MAX, WATCH_NAME_MAX } from "@/lib/domain/watch/bulk-input";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";
import { webhookIdParamSchema, webhookIdSchema } from "@/lib/server/hub/path-params";

const NAME = "Watch name";

/** The name of a watch (a customer's, say): trimmed, may be empty, at most WATCH_NAME_MAX characters. */
const watchNameInput = textInput(NAME, "enter text.").check(z.trim(), maxChars(NAME, WATCH_NAME_MAX));

export const watchOneSchema = z.strictObject({
  webhookId: webhookIdSchema,
  name: z._default(watchNameInput, ""),
});

/** What the Watch page pastes: IDs one per line, or a CSV of id,name. */
export const watchManySchema = z.strictObject({
  text: textInput("Webhook IDs", "paste one ID per line, or id,name.").check(
    notBlank("Webhook IDs", "paste one ID per line, or id,name."),
    z.refine(
      (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== "").length <= BULK_LINES_MAX + 1,
      {
        error: fieldMessage(
          "Webhook IDs",
          `paste at most ${BULK_LINES_MAX} lines at once, and the rest in another round.`,
        ),
      },
    ),
  ),
});

export const renameWatchSchema = z.strictObject({
  name: watchNameInput.check(notBlank(NAME, "give the watch a name, e.g. the customer's.")),
});

export const watchParamsSchema = z.strictObject({ webhookId: webhookIdParamSchema });
