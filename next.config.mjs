/**
 * Security headers for every answer. The page CSP carries a per-request nonce, so it is set by
 * `proxy.ts`, not here; JSON answers get a CSP that allows nothing. See SECURITY.md.
 */
const production = process.env.NODE_ENV === "production";

const everywhere = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  },
  // Ignored by browsers over plain http; over https, keeps them there.
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=31536000" }] : []),
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (tests, bench, a dev server) when each names its own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["better-sqlite3"],
  // `npm run typecheck` (route types + tsc) is the type gate. NEXT_SKIP_TYPECHECK=1 skips the
  // build's own copy of that check: `npm test` sets it for its build, because its first step just
  // ran the same check on the same tree. A plain `next build` still checks.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  async headers() {
    return [
      { source: "/:path*", headers: everywhere },
      {
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
      },
    ];
  },
};

export default nextConfig;
