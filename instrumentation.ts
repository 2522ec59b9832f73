/**
 * Runs once when a console server starts, before it takes requests: checks the configuration
 * (SESSION_SECRET length, SESSION_SECRET_PREVIOUS, HUB_BASE_URL, timeouts, …) and refuses to
 * start, naming the variable, when one is wrong. Better than failing on the first sign-in.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { checkConfigAtBoot } = await import("@/lib/server/boot");
    checkConfigAtBoot();
  }
}
