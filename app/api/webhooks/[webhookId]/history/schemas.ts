import { z } from "zod";
import { LOG_LIMIT_DEFAULT, LOG_LIMIT_MAX } from "@/lib/domain/api-limits";
import { DEFAULT_HEALTH_WINDOW, HEALTH_WINDOWS } from "@/lib/domain/history/health";
import { FIND_INPUT_MAX, parseFindInput } from "@/lib/domain/history/find-input";
import { QUESTION_PARAMS, parseQuestion } from "@/lib/domain/history/question";
import { serverConfig } from "@/lib/server/config";

/**
 * Query schemas of the history routes. The question's fields are read by the one parser the
 * browser uses too (lib/domain/history/question.ts); its field errors become zod issues, so a
 * bad filter is a 400 naming the field, before anything is sent upstream.
 */

const optionalText = z.string().optional();

/** `cap`: how many logs the scan may read; HISTORY_SCAN_CAP when absent, at most HISTORY_SCAN_CAP_MAX. */
const capSchema = z.coerce
  .number({ error: "cap must be a whole number" })
  .int("cap must be a whole number")
  .min(1, "cap must be at least 1")
  .optional()
  .superRefine((cap, ctx) => {
    const { capMax } = serverConfig().history;
    if (cap !== undefined && cap > capMax)
      ctx.addIssue({ code: "custom", message: `cap may be at most ${capMax} (HISTORY_SCAN_CAP_MAX)` });
  })
  .transform((cap) => cap ?? serverConfig().history.cap);

const questionFields = Object.fromEntries(QUESTION_PARAMS.map((name) => [name, optionalText])) as Record<
  (typeof QUESTION_PARAMS)[number],
  typeof optionalText
>;

function withQuestion<T extends Record<string, unknown>>(value: T, ctx: z.RefinementCtx) {
  const params = new URLSearchParams();
  for (const name of QUESTION_PARAMS) {
    const raw = value[name];
    if (typeof raw === "string") params.set(name, raw);
  }
  const parsed = parseQuestion(params);
  if (!parsed.ok) {
    for (const [field, messages] of Object.entries(parsed.errors))
      for (const message of messages)
        ctx.addIssue({ code: "custom", message: `${field} ${message}`, path: [field] });
    return z.NEVER;
  }
  return { ...value, question: parsed.value };
}

/** `GET …/history`: the question, `cap`, and paging over the matched rows (`offset`, `limit` 1..50). */
export const scanQuerySchema = z
  .strictObject({
    ...questionFields,
    cap: capSchema,
    offset: z.coerce
      .number({ error: "offset must be a whole number" })
      .int("offset must be a whole number")
      .min(0, "offset must be 0 or more")
      .max(10_000_000, "offset is too large")
      .default(0),
    limit: z.coerce
      .number({ error: "limit must be a whole number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(LOG_LIMIT_MAX, `limit may not exceed ${LOG_LIMIT_MAX}`)
      .default(LOG_LIMIT_DEFAULT),
  })
  .transform(withQuestion);

/** `GET …/history/export`: the question, `cap`, and `format` (csv or json). */
export const exportQuerySchema = z
  .strictObject({
    ...questionFields,
    cap: capSchema,
    format: z.enum(["csv", "json"], { error: "format must be csv or json" }),
  })
  .transform(withQuestion);

/** `GET …/history/health`: `window` (1h, 24h or 7d; 24h when absent) and `cap`. */
export const healthQuerySchema = z.strictObject({
  window: z
    .enum(Object.keys(HEALTH_WINDOWS) as [keyof typeof HEALTH_WINDOWS], {
      error: "window must be 1h, 24h or 7d",
    })
    .default(DEFAULT_HEALTH_WINDOW),
  cap: capSchema,
});

/** `GET …/history/find`: `q` (a message ID, a log ID or a console link) and `cap`. */
export const findQuerySchema = z
  .strictObject({
    q: z.string({ error: "q is required: a message ID, a log ID or a console link" }).max(FIND_INPUT_MAX, {
      error: `q may be at most ${FIND_INPUT_MAX} characters`,
    }),
    cap: capSchema,
  })
  .transform((value, ctx) => {
    const parsed = parseFindInput(value.q);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: `q ${parsed.message}`, path: ["q"] });
      return z.NEVER;
    }
    return { cap: value.cap, target: parsed.target };
  });
