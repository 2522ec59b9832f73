/**
 * The routes of the spec (part 4): get a webhook, list its logs, send a message.
 * Order in each: authenticate (401), parse input (400/413/415), look up (404), act.
 */
import { channelKindSchema, idSchema, sendMessageSchema, webhookLogQuerySchema } from "../domain/hub-schemas";
import { authenticate } from "./auth";
import { HttpError, parseOr400, readJsonBody, sendJson, type Router } from "./http";
import type { Store, Webhook } from "./store";
import { webhookJson, webhookLogJson } from "./views";

export interface ApiDeps {
  store: Store;
  /** Told which webhooks just got queued deliveries. */
  onQueued: (webhookIds: string[]) => void;
}

const LOG_QUERY_KEYS = ["offset", "limit", "status"] as const;

export function addApiRoutes(router: Router, { store, onQueued }: ApiDeps): void {
  /** The caller's webhook, or 404 as if it did not exist (spec part 5.4). */
  function ownWebhook(applicationId: string, rawId: string | undefined): Webhook {
    const id = parseOr400(idSchema, rawId, "webhook_id");
    const webhook = store.getWebhook(id);
    if (!webhook || webhook.applicationId !== applicationId) {
      throw new HttpError(
        404,
        "webhook_not_found",
        `No webhook with id ${id} in the application of this API key.`,
      );
    }
    return webhook;
  }

  router.add("GET", "/v1/organization/webhook/:webhookId", ({ req, res, params }) => {
    const applicationId = authenticate(req, store);
    sendJson(res, 200, webhookJson(ownWebhook(applicationId, params.webhookId)));
  });

  router.add("GET", "/v1/organization/webhook/:webhookId/webhook-log", ({ req, res, url, params }) => {
    const applicationId = authenticate(req, store);
    const raw: Record<string, string> = {};
    for (const key of LOG_QUERY_KEYS) {
      const values = url.searchParams.getAll(key);
      if (values.length > 1) {
        throw new HttpError(
          400,
          "invalid_query",
          `The query parameter ${key} is given ${values.length} times; give it once.`,
        );
      }
      if (values[0] !== undefined) raw[key] = values[0];
    }
    const query = parseOr400(webhookLogQuerySchema, raw, "query");
    const webhook = ownWebhook(applicationId, params.webhookId);
    const { rows, total } = store.listLogs(webhook, query);
    sendJson(res, 200, {
      data: rows.map((log) => webhookLogJson(log, webhook)),
      pagination: {
        offset: query.offset,
        limit: query.limit,
        total,
        totalPages: Math.ceil(total / query.limit),
      },
    });
  });

  router.add("POST", "/v1/communication/:channelKind/message", async ({ req, res, params }) => {
    const applicationId = authenticate(req, store);
    const channelKind = parseOr400(channelKindSchema, params.channelKind, "channel_kind");
    const body = parseOr400(sendMessageSchema, await readJsonBody(req), "message");
    const channel = store.getChannel(body.from);
    if (!channel || channel.applicationId !== applicationId) {
      throw new HttpError(
        404,
        "channel_not_found",
        `No channel with id ${body.from} in the application of this API key. Use the id of one of your application's channels as "from".`,
      );
    }
    if (channel.kind !== channelKind) {
      throw new HttpError(
        404,
        "channel_kind_mismatch",
        `Channel ${channel.id} is a "${channel.kind}" channel, so there is no "${channelKind}" channel with that id: ` +
          `send to POST /v1/communication/${channel.kind}/message.`,
      );
    }
    const message = store.createMessage({ applicationId, channel, to: body.to, content: body.content });
    onQueued(message.webhookIds);
    sendJson(res, 202, {
      id: message.id,
      messageId: message.id,
      status: "queued",
      channelKind: channel.kind,
      from: channel.id,
      to: body.to,
      createdDate: message.createdDate,
      deliveries: message.webhookIds.length,
    });
  });
}
