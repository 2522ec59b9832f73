/**
 * "What changed since it last worked": a failed delivery beside the last successful delivery of
 * the same webhook before it. Pure: the watch's store or the scan finds the two logs.
 */
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { isVolatileKey, isVolatileValue, withoutVolatile } from "@/lib/domain/bundle/volatile";
import { exactTime, spanWords, timeWords } from "@/lib/domain/bundle/time-words";

/** Bodies longer than this (either one) are not diffed; the raw bodies are offered instead. */
export const DIFF_MAX_CHARS = 64_000;
/** Line diffs of more lines than this (either side) are not computed either. */
export const DIFF_MAX_LINES = 2_000;

export type ComparedLog = Pick<WebhookLog, "id" | "statusCode" | "responseBody" | "sendAt"> & {
  messageId?: string | null;
  /** Set when `responseBody` is only its start (a bundle's raw bodies): the whole body's length. */
  bodyLength?: number;
};

export interface JsonChange {
  /** `$.error.message`, `$.items[2]`. */
  path: string;
  kind: "added" | "removed" | "changed";
  /** JSON text of the value at the last success (absent when added). */
  before?: string;
  /** JSON text of the value in the failure (absent when removed). */
  after?: string;
  /** An id or a timestamp: expected to differ, so dimmed. */
  volatile: boolean;
}

export interface LineChange {
  op: "same" | "added" | "removed";
  text: string;
  volatile: boolean;
}

export type BodyDiff =
  | { kind: "identical" }
  | { kind: "json"; changes: JsonChange[] }
  | { kind: "lines"; lines: LineChange[] }
  | { kind: "too_large"; limit: number; message: string };

export interface Comparison {
  failed: ComparedLog;
  lastSuccess: ComparedLog | null;
  /** Between the last success and the failure; null without a success. */
  gapMs: number | null;
  gapText: string | null;
  diff: BodyDiff | null;
  summary: string;
}

/** A body's own words about what went wrong: its `message`/`error`/`detail`, else its first line. */
export function bodyReason(body: string, max = 80): string | null {
  let reason: string | null = null;
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) {
    try {
      reason = reasonIn(JSON.parse(trimmed));
    } catch {
      reason = null;
    }
  }
  reason ??= trimmed.split(/\r?\n/).find((line) => line.trim() !== "") ?? null;
  if (reason === null) return null;
  const oneLine = reason.replace(/\s+/g, " ").trim();
  if (oneLine === "") return null;
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function reasonIn(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return value;
  if (depth > 3 || typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) return value.length > 0 ? reasonIn(value[0], depth + 1) : null;
  const record = value as Record<string, unknown>;
  for (const key of ["message", "error", "detail", "error_description", "title", "reason", "errors"]) {
    const found = key in record ? reasonIn(record[key], depth + 1) : null;
    if (found) return found;
  }
  return null;
}

function codeText(statusCode: number): string {
  return statusCode === 0 ? "no connection" : String(statusCode);
}

export interface SummaryOptions {
  now: number;
  timeZone: string;
  /**
   * Times said exactly, with the zone (`2026-11-25 09:12:00 (UTC)`), for a document read later (a
   * support bundle); by default relative to `now` (`09:12 today`), for the console.
   */
  absolute?: boolean;
  /** How the body's words are quoted: `'…'` by default; Markdown puts them in a code span. */
  quote?: (reason: string) => string;
}

/** The one-sentence summary, times in `timeZone`. */
export function comparisonSummary(
  failed: ComparedLog,
  lastSuccess: ComparedLog | null,
  { now, timeZone, absolute = false, quote = (reason) => `'${reason}'` }: SummaryOptions,
): string {
  const reason = bodyReason(failed.responseBody);
  const code = codeText(failed.statusCode);
  const withReason = reason ? `${code} with ${quote(reason)}` : code;
  const when = (iso: string) =>
    absolute ? exactTime(Date.parse(iso), timeZone) : timeWords(Date.parse(iso), now, timeZone);
  if (!lastSuccess) return `No success in the history; ${withReason} at ${when(failed.sendAt)}.`;
  return `Worked until ${when(lastSuccess.sendAt)} with ${lastSuccess.statusCode}; this delivery then failed: ${withReason}.`;
}

export function compareWithLastSuccess(
  failed: ComparedLog,
  lastSuccess: ComparedLog | null,
  options: Omit<SummaryOptions, "quote">,
): Comparison {
  const gapMs = lastSuccess ? Date.parse(failed.sendAt) - Date.parse(lastSuccess.sendAt) : null;
  return {
    failed,
    lastSuccess,
    gapMs,
    gapText: gapMs === null ? null : spanWords(gapMs),
    diff: lastSuccess ? diffBodies(lastSuccess.responseBody, failed.responseBody) : null,
    summary: comparisonSummary(failed, lastSuccess, options),
  };
}

/** The two bodies diffed: structurally when both are JSON objects or arrays, else line by line. */
export function diffBodies(before: string, after: string): BodyDiff {
  if (before.length > DIFF_MAX_CHARS || after.length > DIFF_MAX_CHARS) {
    return tooLarge(`A body is longer than ${DIFF_MAX_CHARS.toLocaleString("en-US")} characters`);
  }
  if (before === after) return { kind: "identical" };
  const a = parseStructure(before);
  const b = parseStructure(after);
  if (a !== undefined && b !== undefined) {
    const changes: JsonChange[] = [];
    diffValues(a, b, "$", null, changes);
    return changes.length === 0 ? { kind: "identical" } : { kind: "json", changes };
  }
  const linesBefore = before.split(/\r?\n/);
  const linesAfter = after.split(/\r?\n/);
  if (linesBefore.length > DIFF_MAX_LINES || linesAfter.length > DIFF_MAX_LINES) {
    return tooLarge(`A body has more than ${DIFF_MAX_LINES.toLocaleString("en-US")} lines`);
  }
  return { kind: "lines", lines: diffLines(linesBefore, linesAfter) };
}

function tooLarge(what: string): BodyDiff {
  return {
    kind: "too_large",
    limit: DIFF_MAX_CHARS,
    message: `${what}, too large to diff here. Compare the raw bodies instead.`,
  };
}

/** An object or array parsed from JSON text; undefined for anything else. */
function parseStructure(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function diffValues(a: unknown, b: unknown, path: string, key: string | null, out: JsonChange[]): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const at = childPath(path, i);
      if (i >= a.length) out.push(change(at, "added", undefined, b[i], key));
      else if (i >= b.length) out.push(change(at, "removed", a[i], undefined, key));
      else diffValues(a[i], b[i], at, key, out);
    }
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const at = childPath(path, name);
      if (!Object.hasOwn(b, name)) out.push(change(at, "removed", a[name], undefined, name));
      else if (!Object.hasOwn(a, name)) out.push(change(at, "added", undefined, b[name], name));
      else diffValues(a[name], b[name], at, name, out);
    }
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(change(path, "changed", a, b, key));
}

function change(
  path: string,
  kind: JsonChange["kind"],
  before: unknown,
  after: unknown,
  key: string | null,
): JsonChange {
  const values = [before, after].filter((value) => value !== undefined);
  const volatile = (key !== null && isVolatileKey(key)) || values.every(isVolatileValue);
  return {
    path,
    kind,
    ...(before !== undefined ? { before: JSON.stringify(before) } : {}),
    ...(after !== undefined ? { after: JSON.stringify(after) } : {}),
    volatile,
  };
}

/** A longest-common-subsequence line diff; changed lines that differ only in ids and times are volatile. */
function diffLines(a: string[], b: string[]): LineChange[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  // lengths[i][j]: LCS of a[start+i..endA) and b[start+j..endB), flattened.
  const lengths = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] =
        a[start + i] === b[start + j]
          ? lengths[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lengths[(i + 1) * (m + 1) + j]!, lengths[i * (m + 1) + j + 1]!);
    }
  }
  const middle: LineChange[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      middle.push({ op: "same", text: a[start + i]!, volatile: false });
      i++;
      j++;
    } else if (i < n && (j >= m || lengths[(i + 1) * (m + 1) + j]! >= lengths[i * (m + 1) + j + 1]!)) {
      middle.push({ op: "removed", text: a[start + i]!, volatile: false });
      i++;
    } else {
      middle.push({ op: "added", text: b[start + j]!, volatile: false });
      j++;
    }
  }
  markVolatileLines(middle);
  const same = (text: string): LineChange => ({ op: "same", text, volatile: false });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

function markVolatileLines(lines: LineChange[]): void {
  let hunkStart = 0;
  for (let k = 0; k <= lines.length; k++) {
    if (k < lines.length && lines[k]!.op !== "same") continue;
    const hunk = lines.slice(hunkStart, k);
    const removed = new Set(hunk.filter((l) => l.op === "removed").map((l) => withoutVolatile(l.text)));
    const added = new Set(hunk.filter((l) => l.op === "added").map((l) => withoutVolatile(l.text)));
    for (const line of hunk) {
      const other = line.op === "added" ? removed : added;
      line.volatile = other.has(withoutVolatile(line.text));
    }
    hunkStart = k + 1;
  }
}
