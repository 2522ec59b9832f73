/**
 * The security headers of every answer of the console (next.config.mjs), in plain JavaScript so
 * that the Next configs can import it: the console's, and the bench's bare page that measures what
 * they cost. The page CSP carries a per-request nonce, so `proxy.ts` sets it, not this list.
 * See SECURITY.md.
 */
const production = process.env.NODE_ENV === "production";

export const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  // A page that opened the console gets no handle on its window: it cannot navigate it to a fake
  // sign-in form asking for the API key, nor probe it. It costs a fresh tab's load (SECURITY.md).
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  },
  // Ignored by browsers over plain http; over https, keeps them there.
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=31536000" }] : []),
];
