import "server-only";
import { safeParse, type $ZodType, type output } from "zod/v4/core";
import type { FieldErrors } from "@/lib/domain/api-error";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import { AppError } from "@/lib/server/app-error";
import { readCapped } from "@/lib/server/http/read-capped";
import { isJsonContentType } from "@/lib/domain/same-origin";

/**
 * Parsing at the edge of a route handler: path params, query and JSON body, each with a zod
 * schema. Every failure is an AppError (400 with field errors, 413, 415), raised before the
 * handler does anything else, so nothing reaches the hub on bad input.
 */

/** Request bodies larger than this are refused with 413 (a send-message body is a few KiB). */
export const DEFAULT_BODY_LIMIT_BYTES = 32 * 1024;

/** A 400 whose message is what the person reads: the first message of up to three fields. */
function invalid(fields: FieldErrors): AppError {
  const message = Object.values(fields)
    .slice(0, 3)
    .map((messages) => messages[0])
    .join(" ");
  return new AppError("bad_request", message, { fields });
}

export function parseWith<S extends $ZodType>(schema: S, input: unknown): output<S> {
  const result = safeParse(schema, input);
  if (!result.success) throw invalid(fieldErrors(result.error));
  return result.data;
}

/** A query or form as name → value; a name given twice is a 400 (no silent "last one wins"). */
function singleValues(pairs: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  const repeated: FieldErrors = {};
  for (const [name, value] of pairs) {
    if (name in values) repeated[name] = [`${name}: it is given more than once; give it once.`];
    values[name] = value;
  }
  if (Object.keys(repeated).length > 0) throw invalid(repeated);
  return values;
}

/** Query string → object for a schema. */
export function parseQuery<S extends $ZodType>(url: URL, schema: S): output<S> {
  return parseWith(schema, singleValues(url.searchParams));
}

export { isJsonContentType };

/** A JSON body parsed with a schema: 415 unless `Content-Type: application/json`, 413 over the cap, 400 when malformed or invalid. */
export async function parseJsonBody<S extends $ZodType>(
  request: Request,
  schema: S,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<output<S>> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new AppError(
      "unsupported_media_type",
      "This route accepts JSON only: send the body with Content-Type: application/json.",
    );
  }
  const text = await readBodyText(request, limitBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON. Send a JSON object.");
  }
  return parseWith(schema, json);
}

/** A form body (`application/x-www-form-urlencoded`, what a plain HTML form posts) parsed with a schema; a field given twice is a 400. */
export async function parseFormBody<S extends $ZodType>(
  request: Request,
  schema: S,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<output<S>> {
  const mediaType = request.headers.get("content-type")?.split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw new AppError(
      "unsupported_media_type",
      "This route takes a form: send the body as application/x-www-form-urlencoded.",
    );
  }
  return parseWith(schema, singleValues(new URLSearchParams(await readBodyText(request, limitBytes))));
}

/** The body as text; 413 over `limitBytes`. */
function readBodyText(request: Request, limitBytes: number): Promise<string> {
  return readCapped(
    request.body,
    request.headers.get("content-length"),
    limitBytes,
    () =>
      new AppError(
        "payload_too_large",
        `The request body is larger than ${Math.round(limitBytes / 1024)} KiB, which this route refuses. Send less.`,
      ),
  );
}
