/**
 * The lines of a history scan's streamed answer (`application/x-ndjson`), as the browser reads
 * them: `progress` lines while the scan reads, then one `result` line, or an `error` line when
 * the scan fails after the answer began.
 */
import type { ErrorBody, ErrorCode } from "@/lib/domain/api-error";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import type { HealthSummary } from "@/lib/domain/history/health";

/** Why a result covers less than the question asked. null: it covers it all. */
export type ScanPartial =
  { reason: "cap"; message: string } | { reason: "failed"; code: ErrorCode; message: string } | null;

export interface ScanProgressLine {
  type: "progress";
  /** Logs read so far. */
  read: number;
  /** The hub's total for the webhook when the scan began. */
  total: number;
  /** The most this scan reads. */
  cap: number;
  matches: number;
}

export interface ScanResultLine {
  type: "result";
  read: number;
  total: number;
  cap: number;
  matches: number;
  offset: number;
  limit: number;
  rows: WebhookLog[];
  summary: HealthSummary;
  partial: ScanPartial;
  /** Deliveries that arrived while the scan ran (the next question brings them in). */
  arrivedMeanwhile: number;
  /** The watch's store or a scan of the hub, and how fresh. */
  source: HistorySource;
}

export type ScanErrorLine = { type: "error" } & ErrorBody;

export type ScanLine = ScanProgressLine | ScanResultLine | ScanErrorLine;
