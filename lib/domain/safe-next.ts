/**
 * Where to go after signing in: a `next` path of this console, never another site
 * (`//evil.example`, `https://…`, `/\evil`, `/.//evil`), never an API route or the sign-in page.
 *
 * The decision is made on the normalised value, the one the browser is sent to: a URL parser
 * turns `/.//evil`, `/..//evil` and `/%2e//evil` into `//evil`, and a browser reads a Location of
 * `//evil` as another host. Only a path that normalises to itself, and whose decoded form still
 * names a path here, is kept. The server's redirect and the sign-in form both call this.
 */
export const DEFAULT_AFTER_SIGN_IN = "/webhooks";

const NEXT_MAX = 2000;
const BASE = "http://console.invalid";

/** The path, query and hash `next` resolves to on this console, or null when it leaves it. */
function normalised(next: string): string | null {
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.username || url.password) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `text` percent-decoded until it no longer changes (a few rounds at most), or null when malformed. */
function decodedFully(text: string): string | null {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return null;
}

/**
 * True for a path a browser (or a proxy that decodes it) resolves on this origin: it starts with
 * one slash, and neither it nor its decoded form holds a backslash, a control character or space,
 * or starts with two slashes.
 */
function isLocalPath(path: string): boolean {
  const decoded = decodedFully(path);
  if (decoded === null) return false;
  for (const form of [path, decoded]) {
    if (!form.startsWith("/") || form.startsWith("//")) return false;
    if (/[\\\s\u0000-\u001f\u007f]/.test(form)) return false;
  }
  return true;
}

/** The path part of a path with a query or hash. */
function pathOf(next: string): string {
  return next.split(/[?#]/, 1)[0]!;
}

/** The sign-in page and the API are never a place to land on. */
function isOffLimits(path: string): boolean {
  const pathname = (decodedFully(path) ?? "").replace(/\/+$/, "").toLowerCase();
  return pathname === "/login" || pathname === "/api" || pathname.startsWith("/api/");
}

export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next === "" || next.length > NEXT_MAX) return DEFAULT_AFTER_SIGN_IN;
  // Parsers strip tabs and newlines ("/\t/x" becomes "//x") and read "\" as "/": refused as given.
  if (/[\\\u0000-\u001f\u007f]/.test(next) || !isLocalPath(pathOf(next))) return DEFAULT_AFTER_SIGN_IN;
  const path = normalised(next);
  // Decided on the normalised value, which must also be a fixed point: what is kept is what is sent.
  if (path === null || normalised(path) !== path) return DEFAULT_AFTER_SIGN_IN;
  if (!isLocalPath(pathOf(path)) || isOffLimits(pathOf(path))) return DEFAULT_AFTER_SIGN_IN;
  return path;
}
