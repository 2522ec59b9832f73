import { z } from "zod";
import { defineRoute } from "@/lib/server/http/route";
import { sendMessage } from "@/lib/server/hub/client";
import { messageBodySchema } from "@/lib/domain/inputs/send-message";
import { channelKindParamSchema } from "@/lib/server/hub/path-params";

const paramsSchema = z.strictObject({ channelKind: channelKindParamSchema });

/**
 * Send a test message: `{ from, to, content: { text } }` → the hub's send call. Answers 202 with
 * `{ messageId, answer }` (the delivery to webhooks happens afterwards). The body schema is the
 * send form's own, and forwards only the fields the form has, whatever else the body carried.
 */
export const POST = defineRoute({
  params: paramsSchema,
  body: messageBodySchema,
  async handle({ params, body, session, hub }) {
    const apiKey = await session.apiKey();
    return Response.json(await sendMessage(hub(apiKey), params.channelKind, body), { status: 202 });
  },
});
