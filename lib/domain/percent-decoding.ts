/** `decodeURIComponent`, or null for a malformed percent-encoding (`%`, `%ZZ`, a cut or surrogate UTF-8 sequence) instead of a URIError. */
export function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
