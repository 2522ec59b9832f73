import { AppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";

/** Any /api path no route matches: a JSON 404 like every other answer of the console's API. */
const notFound = defineRoute({
  async handle() {
    throw new AppError(
      "not_found",
      "There is no such route in the console's API. Check the address and the method.",
    );
  },
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
