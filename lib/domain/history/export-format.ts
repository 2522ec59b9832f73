/**
 * The export of matched deliveries: the spec's log fields, as CSV (RFC 4180, formula-safe) or as
 * a JSON array written one row at a time, and the file's name.
 */

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
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, so it is shown as text.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : neutraliseFormula(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${EXPORT_FIELDS.join(",")}\r\n`;
}

export function csvRow(log: ExportableLog): string {
  return (
    [
      log.id,
      log.webhookId,
      log.statusCode,
      log.responseBody,
      log.status,
      log.sendAt,
      log.createdDate,
      log.messageId ?? "",
      log.webhook.id,
      log.webhook.endpoint,
      log.webhook.eventType,
    ]
      .map(csvCell)
      .join(",") + "\r\n"
  );
}

/** Only the spec's fields (fields the API adds beyond them are left out of a file for a customer). */
export function exportObject(log: ExportableLog): Record<string, unknown> {
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

/** `20250131T020000Z`: a time in a file name. */
function fileTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** `webhook-<id>-deliveries-<since>-to-<until>.csv`; an open end reads `start` / `now` (the export's time). */
export function exportFileName(
  webhookId: string,
  range: { since: number | null; until: number | null },
  format: ExportFormat,
  now: number,
): string {
  const from = range.since === null ? "start" : fileTime(range.since);
  const to = fileTime(range.until ?? now);
  return `webhook-${webhookId}-deliveries-${from}-to-${to}.${format}`;
}
