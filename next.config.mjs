/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (tests, bench, a dev server) when each names its own.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["better-sqlite3"],
};

export default nextConfig;
