import { defineRoute } from "@/lib/server/http/route";
import {
  csvHeader,
  csvRow,
  exportFileName,
  exportObject,
  redactedLog,
  type ExportableLog,
  type ExportFormat,
} from "@/lib/domain/history/export-format";
import { createRedactor } from "@/lib/domain/redact";
import { serverConfig } from "@/lib/server/config";
import { narrowToIssue, openExport } from "@/lib/server/history/answer";
import { HISTORY_SOURCE_HEADER } from "@/lib/domain/history/answer-source";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { exportQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * Every delivery matching the question (from the console's copy, brought back up to `cap` logs)
 * as a file, `format=csv|json`, named after the webhook and the time range. Rows are written as
 * the database hands them out: memory does not grow with the export. `X-History-Source` says what
 * the copy covered (JSON of HistorySource), and how many responses in it are cut.
 * `for=customer`: every row redacted as a support bundle is (REDACT_PATTERNS and the session's key
 * included), the file named `…-redacted`; a pattern over its time budget breaks the download off.
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: exportQuerySchema,
  async handle({ params, query, session, signal }) {
    const { id: appId, apiKey } = await session.storeApp();
    const { cap, format } = query;
    const forCustomer = query.for === "customer";
    const question = await narrowToIssue(appId, params.webhookId, query.question, query.issue);
    const matches = await openExport({ apiKey, appId, signal }, params.webhookId, question, cap);
    const encoder = new TextEncoder();
    const encode = rowEncoder(format);
    let started = false;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const opening = started ? "" : format === "csv" ? csvHeader() : "[";
          const batch = await matches.next();
          if (!batch) {
            controller.enqueue(
              encoder.encode(opening + (format === "json" ? (started ? "\n]\n" : "]\n") : "")),
            );
            controller.close();
            return;
          }
          // A redactor per batch: the operator patterns' time budget is for one batch's text.
          const redactor = forCustomer
            ? createRedactor({ patterns: serverConfig().redactPatterns, literals: [apiKey] })
            : null;
          const text = batch
            .map((log, i) => encode(redactor ? redactedLog(log, redactor) : log, !started && i === 0))
            .join("");
          started = true;
          controller.enqueue(encoder.encode(opening + text));
        },
        cancel() {
          matches.close();
        },
      },
      { highWaterMark: 1 },
    );
    const fileName = exportFileName(params.webhookId, question, format, Date.now(), forCustomer);
    return new Response(body, {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "x-content-type-options": "nosniff",
        [HISTORY_SOURCE_HEADER]: JSON.stringify(matches.source),
      },
    });
  },
});

function rowEncoder(format: ExportFormat): (log: ExportableLog, first: boolean) => string {
  if (format === "csv") return (log) => csvRow(log);
  return (log, first) => `${first ? "\n" : ",\n"}${JSON.stringify(exportObject(log))}`;
}
