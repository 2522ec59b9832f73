/**
 * TEST ONLY (vitest). The field → first message of an input a schema refuses (failing the test
 * when it is taken).
 */
import { expect } from "vitest";
import { firstErrors } from "@/lib/domain/inputs/field-errors";

export function refusal(
  schema: { safeParse(input: unknown): { success: boolean; error?: unknown } },
  input: unknown,
): Record<string, string> {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return firstErrors(result.error as Parameters<typeof firstErrors>[0]);
}
