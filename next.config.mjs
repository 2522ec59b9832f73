import { securityHeaders } from "./lib/server/http/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (tests, bench, a dev server) when each names its own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["better-sqlite3"],
  // A full prefetch (the webhook page's next page of rows) is shown for at most 30 s, the least
  // Next allows, rather than 5 minutes: the rows are live data.
  experimental: { staleTimes: { static: 30 } },
  // `npm run typecheck` (route types + tsc) is the type gate. NEXT_SKIP_TYPECHECK=1 skips the
  // build's own copy of that check: `npm test` sets it for its build, because its first step just
  // ran the same check on the same tree. A plain `next build` still checks.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  // The icon is app/icon.svg; a browser that asks for /favicon.ico anyway (Chromium does while a
  // navigation replaces the head's icon link) gets it rather than a 404.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // JSON answers (and /metrics' text) get a CSP that allows nothing; the page CSP carries a
      // per-request nonce, so `proxy.ts` sets it.
      ...["/api/:path*", "/metrics"].map((source) => ({
        source,
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
      })),
    ];
  },
};

export default nextConfig;
