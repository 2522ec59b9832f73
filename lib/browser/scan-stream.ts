import { ApiError, apiFetch } from "@/lib/browser/api";
import type { ScanLine, ScanProgressLine, ScanResultLine } from "@/lib/domain/scan-answer";

/**
 * Runs one history scan: GETs `path`, reads its NDJSON answer line by line, tells `onProgress`
 * of each progress line and resolves with the result line. An error before the answer began is
 * the route's JSON error; one after it is an `error` line: both throw ApiError. Aborting
 * `signal` closes the connection, which stops the scan's upstream calls on the server.
 */
export async function runScan(
  path: string,
  { signal, onProgress }: { signal: AbortSignal; onProgress: (line: ScanProgressLine) => void },
): Promise<ScanResultLine> {
  const response = await apiFetch(path, { signal });
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw brokenStream();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffer += value;
    const lines = buffer.split("\n");
    buffer = done ? "" : (lines.pop() ?? "");
    for (const text of lines) {
      if (text.trim() === "") continue;
      const line = parseLine(text);
      if (line.type === "progress") onProgress(line);
      else if (line.type === "result") return line;
      else
        throw new ApiError(502, line.error.code, line.error.message, { fields: line.error.fields ?? null });
    }
    if (done) throw brokenStream();
  }
}

function parseLine(text: string): ScanLine {
  try {
    return JSON.parse(text) as ScanLine;
  } catch {
    throw brokenStream();
  }
}

function brokenStream(): ApiError {
  return new ApiError(
    502,
    "invalid_answer",
    "The scan's answer ended before its result (the connection broke or the console restarted). Try again.",
  );
}
