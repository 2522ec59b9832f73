import "server-only";
import { isAppError } from "@/lib/server/app-error";

/**
 * A streamed answer of one JSON object per line: progress lines (at most every PROGRESS_EVERY_MS)
 * while `work` runs, then its result, or an `error` line when it fails after the answer began.
 */
const PROGRESS_EVERY_MS = 200;

export function ndjsonResponse<P, R>(
  work: (progress: (line: P) => void) => Promise<R>,
  signal: AbortSignal,
): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = 0;
      const write = (line: unknown) => {
        if (!signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      try {
        const result = await work((line) => {
          const now = Date.now();
          if (now - last < PROGRESS_EVERY_MS) return;
          last = now;
          write(line);
        });
        write(result);
      } catch (error) {
        const body = isAppError(error)
          ? error.toBody()
          : { error: { code: "internal", message: "The scan failed unexpectedly. Try again." } };
        write({ type: "error", ...body });
      }
      try {
        controller.close();
      } catch {
        // Already cancelled by the client.
      }
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "x-content-type-options": "nosniff" },
  });
}
