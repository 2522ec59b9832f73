/** TEST ONLY. The AppError a piece of work throws; any other outcome fails the test. */
import { AppError } from "@/lib/server/app-error";

export async function appErrorOf(work: () => unknown): Promise<AppError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError, but the work succeeded");
}
