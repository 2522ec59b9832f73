import "server-only";
import type { z } from "zod";
import type { FieldErrors } from "@/lib/domain/api-error";
import { AppError } from "@/lib/server/app-error";
import { readCapped } from "@/lib/server/http/read-capped";

/**
 * Parsing at the edge of a route handler: path params, query and JSON body, each with a zod
 * schema. Every failure is an AppError (400 with field errors, 413, 415), raised before the
 * handler does anything else, so nothing reaches the hub on bad input.
 */

/** Request bodies larger than this are refused with 413 (a send-message body is a few KiB). */
export const DEFAULT_BODY_LIMIT_BYTES = 32 * 1024;

/** zod issues → `{ "field.path": ["message", …] }`; form-level issues go under "_". */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  const add = (key: string, message: string) => (fields[key] ??= []).push(message);
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key].join("."), "is not a known field");
      continue;
    }
    add(issue.path.length ? issue.path.join(".") : "_", issue.message);
  }
  return fields;
}

function invalid(what: string, fields: FieldErrors): AppError {
  const summary = Object.entries(fields)
    .slice(0, 3)
    .map(([key, messages]) => (key === "_" ? messages[0] : `${key}: ${messages[0]}`))
    .join("; ");
  return new AppError("bad_request", `The ${what} is not valid (${summary}). Correct it and try again.`, {
    fields,
  });
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(what, fieldErrors(result.error));
  return result.data;
}

/** Query string → object for a schema; a parameter given twice is a 400 (no silent "last one wins"). */
export function parseQuery<S extends z.ZodType>(url: URL, schema: S): z.infer<S> {
  const query: Record<string, string> = {};
  const repeated: FieldErrors = {};
  for (const [name, value] of url.searchParams) {
    if (name in query) repeated[name] = ["is given more than once"];
    query[name] = value;
  }
  if (Object.keys(repeated).length > 0) throw invalid("query", repeated);
  return parseWith(schema, query, "query");
}

export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const mediaType = header.split(";")[0]!.trim().toLowerCase();
  return mediaType === "application/json";
}

/** A JSON body parsed with a schema: 415 unless `Content-Type: application/json`, 413 over the cap, 400 when malformed or invalid. */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<z.infer<S>> {
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
  return parseWith(schema, json, "request body");
}

/** A form body (`application/x-www-form-urlencoded`, what a plain HTML form posts) parsed with a schema; a field given twice is a 400. */
export async function parseFormBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<z.infer<S>> {
  const mediaType = request.headers.get("content-type")?.split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw new AppError(
      "unsupported_media_type",
      "This route takes a form: send the body as application/x-www-form-urlencoded.",
    );
  }
  const text = await readBodyText(request, limitBytes);
  const fields: Record<string, string> = {};
  const repeated: FieldErrors = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) repeated[name] = ["is given more than once"];
    fields[name] = value;
  }
  if (Object.keys(repeated).length > 0) throw invalid("form", repeated);
  return parseWith(schema, fields, "form");
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
