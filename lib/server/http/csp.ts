/**
 * The Content-Security-Policy of every page, with a per-request nonce (set by `proxy.ts`; Next
 * reads the nonce from the request's CSP header and puts it on its own scripts). No inline
 * script runs without the nonce; `'strict-dynamic'` lets those scripts load Next's chunks.
 *
 * Styles: `<style>`/`<link>` need 'self' or the nonce; inline `style="…"` attributes are allowed
 * (`style-src-attr 'unsafe-inline'`) because table widths and the like use them and they cannot
 * run script. Development adds what Next's dev server needs ('unsafe-eval', inline styles of
 * the error overlay). No module here may import server-only code: `proxy.ts` runs it.
 */
export interface CspOptions {
  nonce: string;
  /** Next's development server; by default, when NODE_ENV is "development". */
  dev?: boolean;
  /** Served over https: ask the browser to upgrade any http subresource. */
  https: boolean;
}

export function contentSecurityPolicy({
  nonce,
  dev = process.env.NODE_ENV === "development",
  https,
}: CspOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
