import type { $ZodError } from "zod/v4/core";
import type { FieldErrors } from "@/lib/domain/api-error";

/**
 * zod issues → `{ "field.path": ["message", …] }`, form-level issues under "_": the `fields` of
 * a 400 answer, and what a form shows beside each field.
 */
export function fieldErrors(error: $ZodError): FieldErrors {
  // No prototype: a field named "__proto__" (a hostile body's key) is a field like any other.
  const fields: FieldErrors = Object.create(null) as FieldErrors;
  const add = (key: string, message: string) => (fields[key] ??= []).push(message);
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const name = [...issue.path, key].join(".");
        add(name, `${name}: this request does not take it; leave it out.`);
      }
      continue;
    }
    add(issue.path.length ? issue.path.join(".") : "_", issue.message);
  }
  return fields;
}

/** The first message of each field, as a form shows them. */
export function firstErrors(error: $ZodError): Record<string, string> {
  return Object.fromEntries(Object.entries(fieldErrors(error)).map(([name, [first]]) => [name, first!]));
}
