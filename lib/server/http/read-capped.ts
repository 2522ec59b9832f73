/**
 * Reads a body as UTF-8 text, refusing more than `limitBytes`: checked on the declared
 * Content-Length first, then while reading (the body is cancelled, never buffered whole).
 * Used for requests coming in (413) and hub answers coming back (502): both are web
 * ReadableStreams, async iterables of bytes, cancelled by their iterator's return().
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  declaredLength: string | null,
  limitBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  if (!body) return "";
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await body[Symbol.asyncIterator]()
      .return?.()
      .catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop (the throw) cancels the body.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limitBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
