/**
 * Load generation over node:http with keep-alive: a closed loop of N concurrent callers for a
 * while (throughput), and single requests one at a time (latency). Bodies are read to the end and
 * not parsed, so the generator costs the same on both sides it compares.
 */
import http from "node:http";
import { median, rotationOrder } from "./stats";

export interface Target {
  url: string;
  headers: Record<string, string>;
}

export interface Answer {
  status: number;
  bytes: number;
  body: Buffer;
}

/** One GET, body read to the end. */
export function get(agent: http.Agent, target: Target, keepBody = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(target.url, { agent, headers: target.headers }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${target.url}`)));
  });
}

export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

export interface LoopResult {
  completed: number;
  failed: number;
  /** Status codes other than 200 (and transport errors as "error"), with counts. */
  failures: Record<string, number>;
  elapsedMs: number;
  bytes: number;
  /** Milliseconds of each completed request. */
  latencies: number[];
}

/** `concurrency` callers, each sending its next request when the last one ends, for `durationMs`. */
export async function closedLoop(
  target: Target,
  concurrency: number,
  durationMs: number,
): Promise<LoopResult> {
  const agent = keepAliveAgent(concurrency);
  const result: LoopResult = { completed: 0, failed: 0, failures: {}, elapsedMs: 0, bytes: 0, latencies: [] };
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        const sent = performance.now();
        const answer = await get(agent, target);
        result.bytes += answer.bytes;
        if (answer.status === 200) {
          result.completed++;
          result.latencies.push(performance.now() - sent);
        } else fail(result, String(answer.status));
      } catch {
        fail(result, "error");
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.elapsedMs = performance.now() - start;
  agent.destroy();
  return result;
}

function fail(result: LoopResult, why: string): void {
  result.failed++;
  result.failures[why] = (result.failures[why] ?? 0) + 1;
}

export interface Throughput {
  rps: number;
  completed: number;
  failed: number;
  failures: Record<string, number>;
  perRound: number[];
  /** The median time of a request under this load. */
  p50Ms: number;
  /** CPU milliseconds the side's server used per completed request, when a CPU meter was given. */
  cpuMsPerRequest: number | null;
}

/** A side of a comparison: what to call, and optionally how to read its server's CPU time (ms). */
export interface Side {
  target: Target;
  cpuMs?: () => number | null;
}

/**
 * Throughput of several sides, measured in `rounds` turns each, forwards then backwards
 * (ABBA for two). Each side's figure is all its completed requests over all its time.
 */
export async function throughputInTurns(
  sides: readonly Side[],
  options: { rounds: number; roundMs: number; concurrency: number },
): Promise<Throughput[]> {
  const state = sides.map((side) => ({
    side,
    t: emptyThroughput(),
    time: 0,
    cpu: 0,
    latencies: [] as number[],
  }));
  for (const index of rotationOrder(sides.length, options.rounds)) {
    const s = state[index]!;
    const cpuBefore = s.side.cpuMs?.() ?? null;
    const r = await closedLoop(s.side.target, options.concurrency, options.roundMs);
    const cpuAfter = s.side.cpuMs?.() ?? null;
    if (cpuBefore !== null && cpuAfter !== null) s.cpu += cpuAfter - cpuBefore;
    s.t.completed += r.completed;
    s.t.failed += r.failed;
    for (const [k, v] of Object.entries(r.failures)) s.t.failures[k] = (s.t.failures[k] ?? 0) + v;
    s.t.perRound.push((r.completed / r.elapsedMs) * 1000);
    s.latencies.push(...r.latencies);
    s.time += r.elapsedMs;
  }
  return state.map((s) => ({
    ...s.t,
    rps: (s.t.completed / s.time) * 1000,
    p50Ms: s.latencies.length ? median(s.latencies) : Number.NaN,
    cpuMsPerRequest: s.side.cpuMs && s.t.completed > 0 ? s.cpu / s.t.completed : null,
  }));
}

function emptyThroughput(): Throughput {
  return {
    rps: 0,
    completed: 0,
    failed: 0,
    failures: {},
    perRound: [],
    p50Ms: Number.NaN,
    cpuMsPerRequest: null,
  };
}

/**
 * Latency of several targets, one request at a time, taking turns request by request (forwards
 * then backwards), each over its own warm keep-alive connection. Returns milliseconds per target.
 */
export async function alternatingLatency(targets: readonly Target[], perTarget: number): Promise<number[][]> {
  const agents = targets.map(() => keepAliveAgent(1));
  const samples: number[][] = targets.map(() => []);
  const order = rotationOrder(targets.length, perTarget);
  try {
    // One request each first, so every connection is open and warm before timing starts.
    await Promise.all(targets.map((t, i) => get(agents[i] as http.Agent, t)));
    for (const index of order) {
      const target = targets[index] as Target;
      const start = performance.now();
      const answer = await get(agents[index] as http.Agent, target);
      const ms = performance.now() - start;
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status} from ${target.url}`);
      (samples[index] as number[]).push(ms);
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return samples;
}
