/**
 * Where to go after signing in: a `next` path of this console, never another site
 * (`//evil.example`, `https://…`, `/\evil`), never an API route.
 */
export const DEFAULT_AFTER_SIGN_IN = "/webhooks";

export function safeNextPath(next: string | null | undefined): string {
  if (!next || typeof next !== "string" || next.length > 2000) return DEFAULT_AFTER_SIGN_IN;
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return DEFAULT_AFTER_SIGN_IN;
  // Control characters (tabs, newlines) are stripped by URL parsers and can turn "/\t/x" into "//x".
  if (/[\u0000-\u001f\u007f]/.test(next)) return DEFAULT_AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(next, "http://console.invalid");
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== "http://console.invalid") return DEFAULT_AFTER_SIGN_IN;
  if (url.pathname === "/login" || url.pathname.startsWith("/api/") || url.pathname === "/api")
    return DEFAULT_AFTER_SIGN_IN;
  return `${url.pathname}${url.search}${url.hash}`;
}
