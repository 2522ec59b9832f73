/**
 * Reads a body as UTF-8 text, refusing more than `limitBytes`: checked on the declared
 * Content-Length first, then while reading (the stream is cancelled, never buffered whole).
 * Used for requests coming in (413) and hub answers coming back (502).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limitBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
