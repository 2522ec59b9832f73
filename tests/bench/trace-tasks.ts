/**
 * The main thread's longest tasks in a Chromium trace (as Lighthouse saves it), each with what it
 * was made of: its direct sub-events (parsing HTML, evaluating a script, a function call from a
 * script, style, layout, garbage collection...) with their script URL where the trace names one.
 * Lighthouse's own list attributes a task to one script or to none; this says what is inside.
 */

/** A trace event, as far as this reads it. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

export interface TaskPart {
  name: string;
  ms: number;
  url?: string;
}

export interface MainThreadTask {
  /** Since the first task of the main thread, in ms. */
  startMs: number;
  ms: number;
  /** The largest direct sub-events, the largest first. */
  parts: TaskPart[];
}

/** Sub-events shorter than this (µs) are left out of a task's parts. */
const MIN_PART_US = 500;

const TASK_NAMES = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);

/** The renderer main thread (`CrRendererMain`) whose tasks took the longest in all: the page's. */
function pageMainThread(events: readonly TraceEvent[]): { pid: number; tid: number } | null {
  const mains = events
    .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
    .map((e) => ({ pid: e.pid, tid: e.tid }));
  let best: { pid: number; tid: number; total: number } | null = null;
  for (const thread of mains) {
    const total = events
      .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === "X" && TASK_NAMES.has(e.name))
      .reduce((sum, e) => sum + (e.dur ?? 0), 0);
    if (!best || total > best.total) best = { ...thread, total };
  }
  return best;
}

/** The `count` longest tasks of the page's main thread, each with its `partsPerTask` largest direct sub-events. */
export function longestTasks(
  trace: readonly TraceEvent[] | { traceEvents: readonly TraceEvent[] },
  count = 10,
  partsPerTask = 6,
): MainThreadTask[] {
  const events = Array.isArray(trace) ? trace : (trace as { traceEvents: readonly TraceEvent[] }).traceEvents;
  const thread = pageMainThread(events);
  if (!thread) return [];
  const complete = events
    .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === "X" && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = complete.filter((e) => TASK_NAMES.has(e.name));
  const origin = tasks[0]?.ts ?? 0;
  return [...tasks]
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, count)
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const parts: TaskPart[] = [];
      let coveredUntil = task.ts;
      for (const e of complete) {
        if (e === task || e.ts < task.ts || e.ts >= end) continue;
        // A direct sub-event starts after the previous direct one ended; nested ones fall inside it,
        // and the first of those that names a script names the part's script when it names none.
        if (e.ts < coveredUntil) {
          const last = parts[parts.length - 1];
          if (last && last.url === undefined && e.args?.data?.url) last.url = e.args.data.url;
          continue;
        }
        coveredUntil = e.ts + (e.dur ?? 0);
        if ((e.dur ?? 0) < MIN_PART_US) continue;
        const url = e.args?.data?.url;
        parts.push({ name: e.name, ms: (e.dur ?? 0) / 1000, ...(url ? { url } : {}) });
      }
      return {
        startMs: (task.ts - origin) / 1000,
        ms: (task.dur ?? 0) / 1000,
        parts: parts.sort((a, b) => b.ms - a.ms).slice(0, partsPerTask),
      };
    });
}
