import { decodedOrNull } from "@/lib/domain/percent-decoding";
import { AppError } from "@/lib/server/app-error";

/**
 * An address whose path is not valid percent-encoding (`%`, `%ZZ`, a cut or surrogate UTF-8
 * sequence) is answered 400 here, naming the field, before Next's router tries to decode it
 * (which answers a bare 500). Queries need no such check: they are decoded leniently, and each
 * parameter is then validated by its own schema.
 */

/** What a path segment holds (its param and label), by the segment before it. */
const FIELDS: Record<string, { param: string; label: string }> = {
  webhooks: { param: "webhookId", label: "webhook ID" },
  logs: { param: "logId", label: "log ID" },
  messages: { param: "channelKind", label: "channel kind" },
};

/** The 400 answer for a path with a malformed percent-encoding; null when the path decodes. */
export function malformedPathResponse(pathname: string): Response | null {
  const segments = pathname.split("/");
  const at = segments.findIndex((segment) => decodedOrNull(segment) === null);
  if (at === -1) return null;
  const { param, label } = FIELDS[segments[at - 1] ?? ""] ?? { param: "path", label: "path" };
  const message =
    `The ${label} in this address ("${segments[at]!.slice(0, 80)}") is not valid: each % must start a %XX code of UTF-8. ` +
    "Correct the link, or copy it again from the console.";
  if (pathname.startsWith("/api/"))
    return new AppError("bad_request", message, {
      fields: { [param]: ["has a malformed percent-encoding"] },
    }).toResponse();
  return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}
