/**
 * Contract: authentication and the "another Application" rules (spec parts 5 and 7).
 * Each test names the part it checks. Runs against the in-process sandbox, or any API (see target.ts).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema } from "../../lib/domain/hub-schemas";
import { HubApi } from "../sandbox/support/clients";
import { SKIP_NEEDS_ADMIN, SKIP_NEEDS_FOREIGN, setUpTarget, type ContractTarget } from "./target";

let target: ContractTarget;

beforeAll(async () => {
  target = await setUpTarget();
});
afterAll(() => target.close());

/** Every endpoint of spec part 4, called with `apiKey` (or without the header). */
async function everyEndpoint(apiKey: string | undefined) {
  const api = new HubApi(target.baseUrl, apiKey);
  const message = {
    from: target.channel?.id ?? randomUUID(),
    to: "5511999990000",
    content: { text: "contract" },
  };
  return {
    "GET webhook": await api.getWebhook(target.webhookId),
    "GET webhook-log": await api.listLogs(target.webhookId),
    "POST message": await api.send(target.channelKind, message),
  };
}

describe("spec part 5: the x-api-key header", () => {
  it("§5.1 / §7 a request without x-api-key is 401, on every endpoint", async () => {
    for (const [endpoint, answer] of Object.entries(await everyEndpoint(undefined))) {
      expect(answer.status, endpoint).toBe(401);
    }
  });

  it("§5.1 / §7 a malformed x-api-key is 401, on every endpoint", async () => {
    for (const malformed of ["x", "not a key at all", "%%%%%%%%%%%%%%%%%%%%"]) {
      for (const [endpoint, answer] of Object.entries(await everyEndpoint(malformed))) {
        expect(answer.status, `${endpoint} with ${JSON.stringify(malformed)}`).toBe(401);
      }
    }
  });

  it("§5 / §7 a well-formed key that is not the Application's (unknown) is 401, on every endpoint", async () => {
    const unknown = `${target.apiKey.slice(0, 8)}${"0".repeat(Math.max(24, target.apiKey.length - 8))}`;
    for (const [endpoint, answer] of Object.entries(await everyEndpoint(unknown))) {
      expect(answer.status, endpoint).toBe(401);
    }
  });

  it("§5.1 the Application's key is accepted", async () => {
    const answer = await target.api.getWebhook(target.webhookId);
    expect(answer.status).toBe(200);
    webhookSchema.parse(answer.body);
  });

  it("§2 / §5.5 generating a new key invalidates the old one at once; the new one works", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const { admin } = target.sandbox!;
    const app = await admin.createApplication("rotation");
    const webhook = await admin.createWebhook(app.id, {
      endpoint: "https://hooks.example.com/x",
      active: false,
    });
    const { apiKey } = await admin.rotateKey(app.id);
    expect((await new HubApi(target.baseUrl, app.apiKey).getWebhook(webhook.id)).status).toBe(401);
    expect((await new HubApi(target.baseUrl, apiKey).getWebhook(webhook.id)).status).toBe(200);
  });
});

describe("spec part 5.4: a key operates only within its own Application", () => {
  it("§5.4 / §7 sending from a channel UUID that does not exist is 404", async () => {
    const answer = await target.api.send(target.channelKind, {
      from: randomUUID(),
      to: "5511999990000",
      content: { text: "contract" },
    });
    expect(answer.status).toBe(404);
  });

  it("§5.4 / §7 sending from a channel of another Application is 404, as if it did not exist", async (ctx) => {
    ctx.skip(!target.foreignChannel, SKIP_NEEDS_FOREIGN);
    const channel = target.foreignChannel!;
    const answer = await target.api.send(channel.kind, {
      from: channel.id,
      to: "5511999990000",
      content: { text: "contract" },
    });
    expect(answer.status).toBe(404);
  });

  // The spec says it of channels; the console relies on it for webhooks.
  it("§5.4 a webhook of another Application is 404, as if it did not exist", async (ctx) => {
    ctx.skip(!target.foreignWebhookId, SKIP_NEEDS_FOREIGN);
    expect((await target.api.getWebhook(target.foreignWebhookId!)).status).toBe(404);
    expect((await target.api.listLogs(target.foreignWebhookId!)).status).toBe(404);
  });

  it("§5.4 a webhook id that does not exist is 404", async () => {
    const unknown = randomUUID();
    expect((await target.api.getWebhook(unknown)).status).toBe(404);
    expect((await target.api.listLogs(unknown)).status).toBe(404);
  });
});
