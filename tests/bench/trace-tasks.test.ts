import { describe, expect, it } from "vitest";
import { longestTasks, type TraceEvent } from "./trace-tasks";

describe("longestTasks", () => {
  const main = { pid: 2, tid: 7 };
  const x = (name: string, ts: number, dur: number, url?: string, thread = main): TraceEvent => ({
    name,
    ph: "X",
    ...thread,
    ts,
    dur,
    ...(url ? { args: { data: { url } } } : {}),
  });
  const trace: TraceEvent[] = [
    { name: "thread_name", ph: "M", pid: 1, tid: 1, ts: 0, args: { name: "CrRendererMain" } },
    { name: "thread_name", ph: "M", ...main, ts: 0, args: { name: "CrRendererMain" } },
    // about:blank's renderer: one short task.
    x("RunTask", 0, 1000, undefined, { pid: 1, tid: 1 }),
    x("RunTask", 1000, 5000),
    x("ParseHTML", 1000, 4000),
    x("RunTask", 10_000, 90_000),
    x("EvaluateScript", 10_000, 60_000, "http://x/_next/static/chunks/app.js"),
    x("FunctionCall", 11_000, 50_000, "http://x/_next/static/chunks/app.js"),
    x("Layout", 75_000, 20_000),
    x("MinorGC", 96_000, 1000),
    x("EventDispatch", 97_000, 100),
    x("RunTask", 200_000, 30_000),
    x("v8.callFunction", 200_000, 30_000),
    x("FunctionCall", 201_000, 20_000, "http://x/_next/static/chunks/react.js"),
  ];

  it("lists the longest tasks first, with their direct sub-events by size (none under 0.5 ms), naming a part's script from inside it", () => {
    const tasks = longestTasks({ traceEvents: trace }, 2);
    expect(tasks).toEqual([
      {
        startMs: 9,
        ms: 90,
        parts: [
          { name: "EvaluateScript", ms: 60, url: "http://x/_next/static/chunks/app.js" },
          { name: "Layout", ms: 20 },
          { name: "MinorGC", ms: 1 },
        ],
      },
      {
        startMs: 199,
        ms: 30,
        parts: [{ name: "v8.callFunction", ms: 30, url: "http://x/_next/static/chunks/react.js" }],
      },
    ]);
    expect(longestTasks(trace, 3)[2]).toEqual({ startMs: 0, ms: 5, parts: [{ name: "ParseHTML", ms: 4 }] });
  });

  it("finds nothing in a trace without a renderer main thread", () => {
    expect(longestTasks([x("RunTask", 0, 10)])).toEqual([]);
  });
});
