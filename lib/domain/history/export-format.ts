/**
 * The export of matched deliveries: the spec's log fields as CSV (RFC 4180, UTF-8 with a byte order
 * mark, formula-safe) or JSON, and the file's name; for a customer, each row redacted (redact.ts).
 */
import type { Redactor } from "@/lib/domain/redact";

/** The spec's fields of a webhook log (part 2), in this order; `webhook` is flattened for CSV. */
export const EXPORT_FIELDS = [
  "id",
  "webhookId",
  "statusCode",
  "responseBody",
  "status",
  "sendAt",
  "createdDate",
  "messageId",
  "webhook.id",
  "webhook.endpoint",
  "webhook.eventType",
] as const;

export type ExportFormat = "csv" | "json";

export interface ExportableLog {
  id: string;
  webhookId: string;
  statusCode: number;
  responseBody: string;
  status: string;
  sendAt: string;
  createdDate: string;
  messageId?: string | null;
  webhook: { id: string; endpoint: string; eventType: string };
}

/**
 * Formula-safe in every locale. A spreadsheet may split a cell again on its list separator (`,`,
 * `;` where the decimal mark is a comma, a tab, `|`) or at a line break, so every part that would
 * start a formula (`=`, `+`, `-`, `@` or their full-width forms, after any spaces) gets an
 * apostrophe, which makes it text; so does a cell that starts with a tab or carriage return.
 * `csvCell` also quotes every cell holding a separator, quote or line break.
 */
const SEPARATOR = /([,;\t|\r\n])/;
const FORMULA_START = /^ *[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const NEEDS_QUOTES = /[",;\t|\r\n]/;

export function neutraliseFormula(value: string): string {
  const text = value
    .split(SEPARATOR)
    .map((part) => (FORMULA_START.test(part) ? `'${part}` : part))
    .join("");
  return /^[\t\r]/.test(text) ? `'${text}` : text;
}

export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : neutraliseFormula(String(value));
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Without a byte order mark, Excel reads a CSV in the machine's legacy code page, garbling non-ASCII bodies. */
export const CSV_BOM = "\ufeff";

/** The file's opening: the byte order mark and the header row. */
export function csvHeader(): string {
  return `${CSV_BOM}${EXPORT_FIELDS.join(",")}\r\n`;
}

export function csvRow(log: ExportableLog): string {
  const { webhook, ...fields } = exportObject(log);
  // exportObject's fields in EXPORT_FIELDS order, the webhook's last.
  return (
    [...Object.values(fields), webhook.id, webhook.endpoint, webhook.eventType].map(csvCell).join(",") +
    "\r\n"
  );
}

/** Only the spec's fields (fields the API adds beyond them are left out of a file for a customer). */
export function exportObject(log: ExportableLog) {
  return {
    id: log.id,
    webhookId: log.webhookId,
    statusCode: log.statusCode,
    responseBody: log.responseBody,
    status: log.status,
    sendAt: log.sendAt,
    createdDate: log.createdDate,
    messageId: log.messageId ?? null,
    webhook: { id: log.webhook.id, endpoint: log.webhook.endpoint, eventType: log.webhook.eventType },
  };
}

/** A log as a file for a customer has it: its body, endpoint and event type redacted; ids, codes and times as they are. */
export function redactedLog(log: ExportableLog, redactor: Redactor): ExportableLog {
  return {
    ...log,
    responseBody: redactor.redact(log.responseBody),
    webhook: {
      id: log.webhook.id,
      endpoint: redactor.redactUrl(log.webhook.endpoint),
      eventType: redactor.redact(log.webhook.eventType),
    },
  };
}

/** `20250131T020000Z`: a time in a file name. */
function fileTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/**
 * `webhook-<id>-deliveries-<since>-to-<until>.csv`, `…-redacted.csv` for a customer; an open end
 * reads `start` / `now` (the export's time).
 */
export function exportFileName(
  webhookId: string,
  range: { since: number | null; until: number | null },
  format: ExportFormat,
  now: number,
  redacted = false,
): string {
  const from = range.since === null ? "start" : fileTime(range.since);
  const to = fileTime(range.until ?? now);
  return `webhook-${webhookId}-deliveries-${from}-to-${to}${redacted ? "-redacted" : ""}.${format}`;
}
