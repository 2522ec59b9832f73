import { z } from "zod";
import { LOG_LIMIT_DEFAULT, LOG_LIMIT_MAX } from "@/lib/domain/api-limits";
import { DEFAULT_HEALTH_WINDOW, HEALTH_WINDOWS } from "@/lib/domain/history/health";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { uuidInput } from "@/lib/domain/inputs/uuid";
import { questionShape, sinceNotAfterUntil } from "@/lib/domain/inputs/history-question";
import { serverConfig } from "@/lib/server/config";

/**
 * Query schemas of the history routes. The filters are parsed with the schemas the filter form
 * and Find use (lib/domain/inputs/), so a bad filter is a 400 naming the field, before anything
 * is sent upstream.
 */

/** `cap`: how many logs the scan may read; HISTORY_SCAN_CAP when absent, at most HISTORY_SCAN_CAP_MAX. */
const capSchema = z.coerce
  .number({ error: "cap: enter a whole number of logs to read." })
  .int("cap: enter a whole number of logs to read.")
  .min(1, "cap: enter at least 1.")
  .optional()
  .superRefine((cap, ctx) => {
    const { capMax } = serverConfig().history;
    if (cap !== undefined && cap > capMax)
      ctx.addIssue({ code: "custom", message: `cap: enter at most ${capMax} (HISTORY_SCAN_CAP_MAX).` });
  })
  .transform((cap) => cap ?? serverConfig().history.cap);

/** `issue`: a failure issue's ID; the route reads which failures are its from the watch (narrowToIssue). */
const issueSchema = z.optional(uuidInput("Failure issue"));

/** The question's fields out of a parsed query, beside the rest (its issue is read by the route). */
function withQuestion<T extends z.infer<z.ZodObject<typeof questionShape>>>(value: T) {
  const { status, code, since, until, contains, ...rest } = value;
  return { ...rest, question: { status, code, since, until, contains, issue: null } };
}

/** `GET …/history`: the question, `issue`, `cap`, and paging over the matched rows (`offset`, `limit` 1..50). */
export const scanQuerySchema = z
  .strictObject({
    ...questionShape,
    issue: issueSchema,
    cap: capSchema,
    offset: z.coerce
      .number({ error: "offset: enter a whole number, 0 or more." })
      .int("offset: enter a whole number, 0 or more.")
      .min(0, "offset: enter a whole number, 0 or more.")
      .max(10_000_000, "offset: enter at most 10000000.")
      .default(0),
    limit: z.coerce
      .number({ error: `limit: enter a whole number from 1 to ${LOG_LIMIT_MAX}.` })
      .int(`limit: enter a whole number from 1 to ${LOG_LIMIT_MAX}.`)
      .min(1, `limit: enter a whole number from 1 to ${LOG_LIMIT_MAX}.`)
      .max(LOG_LIMIT_MAX, `limit: enter a whole number from 1 to ${LOG_LIMIT_MAX}.`)
      .default(LOG_LIMIT_DEFAULT),
  })
  .check(sinceNotAfterUntil)
  .transform(withQuestion);

/**
 * `GET …/history/export`: the question, `issue`, `cap`, `format` (csv or json), and `for=customer`
 * for a file to hand to a customer, redacted.
 */
export const exportQuerySchema = z
  .strictObject({
    ...questionShape,
    issue: issueSchema,
    cap: capSchema,
    format: z.enum(["csv", "json"], { error: "format: choose csv or json." }),
    for: z.optional(
      z.enum(["customer"], {
        error:
          "for: write customer for a redacted file to hand to a customer, or leave it out for the team's own.",
      }),
    ),
  })
  .check(sinceNotAfterUntil)
  .transform(withQuestion);

/** `GET …/history/health`: `window` (1h, 24h or 7d; 24h when absent) and `cap`. */
export const healthQuerySchema = z.strictObject({
  window: z
    .enum(Object.keys(HEALTH_WINDOWS) as [keyof typeof HEALTH_WINDOWS], {
      error: "window: choose 1h, 24h or 7d.",
    })
    .default(DEFAULT_HEALTH_WINDOW),
  cap: capSchema,
});

/** `GET …/history/find`: `q` (what Find was given) and `cap`. */
export const findQuerySchema = z
  .strictObject({ q: findInput, cap: capSchema })
  .transform(({ q, cap }) => ({ cap, target: q }));
