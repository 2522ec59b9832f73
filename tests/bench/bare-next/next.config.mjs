/**
 * The bench's framework floor: a Next app of one route handler that passes the logs call through
 * to the sandbox, and one page (a heading, a button and 20 rows) for Lighthouse's floor: at `/` with
 * no headers of its own, at `/secured` with the console's security headers. Built by the bench into
 * `.next/` here, with the repository's own Next.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { securityHeaders } from "../../../lib/server/http/security-headers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The repository's tsc and ESLint check this app's code; its build only compiles it.
  typescript: { ignoreBuildErrors: true },
  turbopack: { root },
  outputFileTracingRoot: root,
  async headers() {
    return [{ source: "/secured", headers: securityHeaders }];
  },
};

export default nextConfig;
