/**
 * Next's `register` (re-exported by `instrumentation.ts`), run once when a server starts. Next
 * builds it for every runtime: no server-only import here, and the Node.js work is imported only
 * behind the NEXT_RUNTIME check, which the edge build removes.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { startNodeServer } = await import("@/lib/server/boot");
    await startNodeServer();
  }
}
