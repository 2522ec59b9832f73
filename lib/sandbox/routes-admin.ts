/**
 * The sandbox's own routes under `/_sandbox/` (not part of the spec). All are guarded by
 * `requireAdmin` except `/_sandbox/health` (and the receivers, in receivers.ts).
 */
import { z } from "zod";
import { channelKindSchema, idSchema } from "../domain/hub-schemas";
import { requireAdmin } from "./auth";
import { faultSettingsSchema, NO_FAULTS, type FaultInjector } from "./faults";
import {
  HttpError,
  parseOr400,
  readJsonBody,
  sendJson,
  type Handler,
  type RequestContext,
  type Router,
} from "./http";
import { demoInfo } from "./seed";
import type { Application, Store } from "./store";
import { channelJson, webhookWithSecretJson } from "./views";

export interface AdminDeps {
  store: Store;
  adminToken: string | undefined;
  /** Deliveries being attempted right now. */
  inFlightDeliveries: () => number;
  faults: FaultInjector;
}

const endpointSchema = z.url({
  protocol: /^https?$/,
  error: "endpoint must be an absolute http:// or https:// URL",
});

const createApplicationBody = z.strictObject({
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "name is required")
    .max(100, "name may be at most 100 characters"),
});

const createChannelBody = z.strictObject({ kind: channelKindSchema });

const createWebhookBody = z.strictObject({
  endpoint: endpointSchema,
  eventType: z.string().trim().min(1, "eventType may not be empty").max(64).default("Message"),
  active: z.boolean({ error: "active must be true or false" }).default(true),
  /** Optional: the sandbox generates one when absent. */
  secret: z.string().min(16, "secret must be at least 16 characters").max(256).optional(),
  description: z.string().max(500).optional(),
});

const patchWebhookBody = z
  .strictObject({
    active: z.boolean({ error: "active must be true or false" }).optional(),
    endpoint: endpointSchema.optional(),
  })
  .refine(
    (patch) => patch.active !== undefined || patch.endpoint !== undefined,
    "give active, endpoint or both",
  );

export function addAdminRoutes(
  router: Router,
  { store, adminToken, inFlightDeliveries, faults }: AdminDeps,
): void {
  const guarded =
    (handler: Handler): Handler =>
    (ctx: RequestContext) => {
      requireAdmin(ctx.req, adminToken);
      return handler(ctx);
    };

  function application(rawId: string | undefined): Application {
    const id = parseOr400(idSchema, rawId, "application_id");
    const found = store.getApplication(id);
    if (!found)
      throw new HttpError(404, "application_not_found", `No application with id ${id} in this sandbox.`);
    return found;
  }

  router.add("GET", "/_sandbox/health", ({ res }) => sendJson(res, 200, { ok: true }));

  router.add(
    "GET",
    "/_sandbox/stats",
    guarded(({ res }) => sendJson(res, 200, { ...store.stats(), inFlightDeliveries: inFlightDeliveries() })),
  );

  router.add(
    "GET",
    "/_sandbox/demo",
    guarded(({ res }) => {
      const demo = demoInfo(store);
      if (!demo) {
        throw new HttpError(
          404,
          "demo_not_seeded",
          "This sandbox has no demo data: start it with SANDBOX_SEED=demo on an empty SANDBOX_DB.",
        );
      }
      if (!demo.keyIsCurrent) {
        throw new HttpError(
          409,
          "demo_key_rotated",
          "The demo application's key was rotated, so the fixed demo key no longer works. Start the sandbox on a fresh SANDBOX_DB to get it back.",
        );
      }
      const { apiKey, applicationId, channels, webhooks } = demo;
      // Every demo application whose key still works (a test may rotate Staging's away).
      const applications = demo.applications
        .filter((app) => app.keyIsCurrent)
        .map(({ name, apiKey, applicationId, channels, webhooks }) => ({
          name,
          apiKey,
          applicationId,
          channels,
          webhooks,
        }));
      sendJson(res, 200, { apiKey, applicationId, channels, webhooks, applications });
    }),
  );

  router.add(
    "POST",
    "/_sandbox/applications",
    guarded(async ({ req, res }) => {
      const body = parseOr400(createApplicationBody, await readJsonBody(req), "application");
      const created = store.createApplication(body.name);
      sendJson(res, 201, {
        id: created.id,
        name: created.name,
        apiKey: created.apiKey,
        createdDate: created.createdDate,
      });
    }),
  );

  router.add(
    "POST",
    "/_sandbox/applications/:applicationId/api-key",
    guarded(({ res, params }) => {
      const app = application(params.applicationId);
      sendJson(res, 200, { apiKey: store.rotateApiKey(app.id) });
    }),
  );

  router.add(
    "POST",
    "/_sandbox/applications/:applicationId/channels",
    guarded(async ({ req, res, params }) => {
      const app = application(params.applicationId);
      const body = parseOr400(createChannelBody, await readJsonBody(req), "channel");
      sendJson(res, 201, channelJson(store.createChannel(app.id, body.kind)));
    }),
  );

  router.add(
    "POST",
    "/_sandbox/applications/:applicationId/webhooks",
    guarded(async ({ req, res, params }) => {
      const app = application(params.applicationId);
      const body = parseOr400(createWebhookBody, await readJsonBody(req), "webhook");
      sendJson(res, 201, webhookWithSecretJson(store.createWebhook({ applicationId: app.id, ...body })));
    }),
  );

  router.add(
    "GET",
    "/_sandbox/applications/:applicationId/webhooks",
    guarded(({ res, params }) => {
      const app = application(params.applicationId);
      sendJson(res, 200, { data: store.listWebhooks(app.id).map(webhookWithSecretJson) });
    }),
  );

  router.add(
    "PATCH",
    "/_sandbox/webhooks/:webhookId",
    guarded(async ({ req, res, params }) => {
      const id = parseOr400(idSchema, params.webhookId, "webhook_id");
      const patch = parseOr400(patchWebhookBody, await readJsonBody(req), "webhook_patch");
      const updated = store.updateWebhook(id, patch);
      if (!updated)
        throw new HttpError(404, "webhook_not_found", `No webhook with id ${id} in this sandbox.`);
      sendJson(res, 200, webhookWithSecretJson(updated));
    }),
  );

  // Fault injection (faults.ts): PUT replaces every setting (absent = off), DELETE switches all off.
  router.add(
    "GET",
    "/_sandbox/faults",
    guarded(({ res }) => sendJson(res, 200, faults.state())),
  );

  router.add(
    "PUT",
    "/_sandbox/faults",
    guarded(async ({ req, res }) => {
      faults.set(parseOr400(faultSettingsSchema, await readJsonBody(req), "faults"));
      sendJson(res, 200, faults.state());
    }),
  );

  router.add(
    "DELETE",
    "/_sandbox/faults",
    guarded(({ res }) => {
      faults.set(NO_FAULTS);
      sendJson(res, 200, faults.state());
    }),
  );
}
