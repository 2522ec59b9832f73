/**
 * What a support bundle needs from a webhook's history, gathered one log at a time, newest
 * first, keeping only what the bundle shows (so a long window costs counts, not memory). Reads
 * past the window's start only as far as the failing streak's true start and the last success
 * before it. Fed by the watch's store or by the scan, whichever holds the history. With a `focus` (a
 * failure issue's cause), only the failures it takes are counted, sampled and compared; the others
 * are counted apart, and still belong to the failing streak (they are failures all the same).
 */
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { bodyReason } from "@/lib/domain/bundle/compare";

export const SAMPLE_COUNT = 5;
export const MESSAGE_ID_COUNT = 100;

export interface CodeCount {
  statusCode: number;
  count: number;
  /** Oldest and newest attempt with this code in the window (ISO). */
  first: string;
  last: string;
}

export interface Incident {
  from: number;
  to: number;
  attempts: number;
  succeeded: number;
  /** Failures in focus (all of them without a focus). */
  failed: number;
  /** Failures outside the focus. */
  otherFailed: number;
  /** Failure codes, most frequent first. */
  codes: CodeCount[];
  /** The newest failure in the window. */
  newestFailure: WebhookLog | null;
  /** The last success before it (possibly before the window); null when none was read. */
  lastSuccess: WebhookLog | null;
  /** The run of failures that ends with the newest failure. */
  streak: { length: number; start: WebhookLog; end: WebhookLog; recovered: boolean } | null;
  /** One failure per distinct (code, reason), newest first. */
  samples: WebhookLog[];
  /** Message ids of the failures (newest first, at most MESSAGE_ID_COUNT) and how many there were. */
  messageIds: { ids: string[]; total: number };
}

export class IncidentCollector {
  private readonly incident: Incident;
  private readonly codes = new Map<number, CodeCount>();
  private readonly sampleKeys = new Set<string>();
  private newerSuccess = false;
  private streakOpen = false;

  constructor(
    window: { from: number; to: number },
    private readonly focus: (log: WebhookLog) => boolean = () => true,
  ) {
    this.incident = {
      ...window,
      attempts: 0,
      succeeded: 0,
      failed: 0,
      otherFailed: 0,
      codes: [],
      newestFailure: null,
      lastSuccess: null,
      streak: null,
      samples: [],
      messageIds: { ids: [], total: 0 },
    };
  }

  /** Takes the next (older) log; false once nothing older can change the bundle. */
  add(log: WebhookLog): boolean {
    const time = Date.parse(log.sendAt);
    const incident = this.incident;
    if (time > incident.to) return true;
    const inWindow = time >= incident.from;
    const inFocus = log.status === "Failed" && inWindow && this.focus(log);
    if (inWindow) this.count(log, inFocus);
    if (log.status === "Failed") {
      if (inFocus && !incident.newestFailure) {
        incident.newestFailure = log;
        incident.streak = { length: 0, start: log, end: log, recovered: this.newerSuccess };
        this.streakOpen = true;
      }
      if (this.streakOpen && incident.streak) {
        incident.streak.length++;
        incident.streak.start = log;
      }
    } else {
      if (this.streakOpen) {
        incident.lastSuccess = log;
        this.streakOpen = false;
      }
      if (inWindow) this.newerSuccess = true;
    }
    if (inWindow) return true;
    return this.streakOpen;
  }

  private count(log: WebhookLog, inFocus: boolean): void {
    const incident = this.incident;
    incident.attempts++;
    if (log.status !== "Failed") {
      incident.succeeded++;
      return;
    }
    if (!inFocus) {
      incident.otherFailed++;
      return;
    }
    incident.failed++;
    const code = this.codes.get(log.statusCode);
    if (code) {
      code.count++;
      code.first = log.sendAt;
    } else {
      this.codes.set(log.statusCode, {
        statusCode: log.statusCode,
        count: 1,
        first: log.sendAt,
        last: log.sendAt,
      });
    }
    const key = `${log.statusCode}:${bodyReason(log.responseBody) ?? ""}`;
    if (incident.samples.length < SAMPLE_COUNT && !this.sampleKeys.has(key)) {
      this.sampleKeys.add(key);
      incident.samples.push(log);
    }
    if (log.messageId) {
      incident.messageIds.total++;
      if (incident.messageIds.ids.length < MESSAGE_ID_COUNT) incident.messageIds.ids.push(log.messageId);
    }
  }

  /** The logs whose bodies the bundle shows: the newest failure, the last success, the samples. */
  shown(): WebhookLog[] {
    const { newestFailure, lastSuccess, samples } = this.incident;
    return [newestFailure, lastSuccess, ...samples].filter((log) => log !== null);
  }

  result(): Incident {
    const codes = [...this.codes.values()].sort((a, b) => b.count - a.count || a.statusCode - b.statusCode);
    return { ...this.incident, codes };
  }
}
