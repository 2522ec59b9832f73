import { z } from "zod/mini";
import { FIND_INPUT_MAX, isUuidShape } from "@/lib/domain/api-limits";
import { decodedOrNull } from "@/lib/domain/percent-decoding";
import type { FindTarget } from "@/lib/domain/history/find-input";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, notBlank, textInput } from "@/lib/domain/inputs/text";

/**
 * "Find a delivery": a log ID, a message ID (both UUIDs: either may match), or a console link
 * to a delivery (`…/webhooks/<webhookId>?log=<logId>`), in any case and with spaces around it.
 */

export const FIND_LABEL = "Find a delivery";

const WHAT = "paste a message ID, a log ID or a console link to a delivery.";

/** The target of a trimmed input, or what is wrong with it (under the field's label). */
function targetOf(label: string, value: string): FindTarget | string {
  const say = (what: string) => fieldMessage(label, what);
  if (isUuidShape(value)) return { kind: "id", id: value.toLowerCase() };
  let url: URL | null = null;
  try {
    url = new URL(value, "http://console.invalid");
  } catch {
    url = null;
  }
  const path = url ? /\/webhooks\/([^/?#]+)\/?$/.exec(url.pathname) : null;
  if (!url || !path || !(/^https?:\/\//i.test(value) || value.startsWith("/")))
    return say(`this is not an ID or a console link: ${WHAT}`);
  const webhookId = decodedOrNull(path[1]!)?.trim() ?? "";
  const log = url.searchParams.get("log")?.trim();
  if (!isUuidShape(webhookId)) return say("this link's webhook ID is not a UUID: copy the link again.");
  if (!log)
    return say("this links to a webhook, not to one delivery: copy the link of the delivery's details.");
  if (!isUuidShape(log)) return say("this link's log ID is not a UUID: copy the link again.");
  return { kind: "log", id: log.toLowerCase(), webhookId: webhookId.toLowerCase() };
}

/** What a Find field labelled `label` was given, as a target; its errors name that label. */
export function findTargetInput(label: string) {
  return z.pipe(
    textInput(label, WHAT).check(z.trim(), notBlank(label, WHAT), maxChars(label, FIND_INPUT_MAX)),
    z.transform((value, ctx): FindTarget => {
      const target = targetOf(label, value);
      if (typeof target === "string") {
        ctx.issues.push({ code: "custom", message: target, input: value });
        return z.NEVER;
      }
      return target;
    }),
  );
}

export const findInput = findTargetInput(FIND_LABEL);
