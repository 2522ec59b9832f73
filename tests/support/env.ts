/**
 * TEST ONLY. Sets environment variables for one test (vitest's stubEnv, undone by
 * `restoreEnv`) and makes the next `serverConfig()` read them.
 */
import { vi } from "vitest";
import { resetServerConfigForTests } from "@/lib/server/config";

export function stubEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  resetServerConfigForTests();
}

export function restoreEnv(): void {
  vi.unstubAllEnvs();
  resetServerConfigForTests();
}
