import { z } from "zod";
import { defineRoute } from "@/lib/server/http/route";
import { sendMessage } from "@/lib/server/hub/client";
import { sendMessageSchema } from "@/lib/domain/hub-schemas";
import { channelKindParamSchema } from "@/lib/server/hub/path-params";

const paramsSchema = z.strictObject({ channelKind: channelKindParamSchema });

/**
 * Send a test message: `{ from, to, content: { text } }` → the hub's send call. Answers 202 with
 * `{ messageId, answer }` (the delivery to webhooks happens afterwards). Only the fields the form
 * has are forwarded, whatever else the body carried.
 */
export const POST = defineRoute({
  params: paramsSchema,
  body: sendMessageSchema,
  async handle({ params, body, session, hub }) {
    const apiKey = await session.apiKey();
    const message = { from: body.from, to: body.to, content: { text: body.content.text } };
    return Response.json(await sendMessage(hub(apiKey), params.channelKind, message), { status: 202 });
  },
});
