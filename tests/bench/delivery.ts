/**
 * Sandbox delivery: send N messages to an application whose one webhook points at a local
 * endpoint answering 200, and time until all N logs are written. Checks that none is lost
 * (exactly N logs, all Success) and none is sent twice (the endpoint saw exactly N requests).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApplication, createChannel, createWebhook } from "../support/hub";
import { formatCount, type Figure } from "./report";

async function listTotal(
  sandboxUrl: string,
  apiKey: string,
  webhookId: string,
  status?: string,
): Promise<number> {
  const query = status ? `limit=1&status=${status}` : "limit=1";
  const response = await fetch(`${sandboxUrl}/v1/organization/webhook/${webhookId}/webhook-log?${query}`, {
    headers: { "x-api-key": apiKey },
  });
  if (!response.ok) throw new Error(`listing delivery logs → HTTP ${response.status}`);
  const body = (await response.json()) as { pagination: { total: number } };
  return body.pagination.total;
}

export async function measureDelivery(
  sandboxUrl: string,
  messages: number,
  sendConcurrency = 8,
): Promise<Figure> {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;

  try {
    const app = await createApplication(sandboxUrl, "bench delivery");
    const channel = await createChannel(sandboxUrl, app.id, "sms");
    const webhook = await createWebhook(sandboxUrl, app.id, `http://127.0.0.1:${port}/hook`);

    const started = performance.now();
    let next = 0;
    const sender = async () => {
      while (next < messages) {
        const i = next++;
        const response = await fetch(`${sandboxUrl}/v1/communication/sms/message`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": app.apiKey },
          body: JSON.stringify({ from: channel.id, to: "5511999990000", content: { text: `bench ${i}` } }),
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`send message → HTTP ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: sendConcurrency }, sender));
    const sentSeconds = (performance.now() - started) / 1000;

    const deadline = Date.now() + Math.max(60_000, messages * 50);
    let logs = 0;
    while ((logs = await listTotal(sandboxUrl, app.apiKey, webhook.id)) < messages && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    // Anything sent twice would show up a moment later: wait a little before counting.
    await new Promise((r) => setTimeout(r, 500));
    logs = await listTotal(sandboxUrl, app.apiKey, webhook.id);
    const failed = await listTotal(sandboxUrl, app.apiKey, webhook.id, "Failed");

    const rate = logs / seconds;
    const noLoss = logs === messages && failed === 0 && received === messages;
    return {
      figure: "sandbox delivery",
      measured:
        `${formatCount(rate)} deliveries/s (${formatCount(messages)} messages in ${seconds.toFixed(1)} s, sent in ${sentSeconds.toFixed(1)} s); ` +
        `logs ${formatCount(logs)}/${formatCount(messages)}, failed ${failed}, endpoint saw ${formatCount(received)}`,
      goal: "report; no loss",
      holds: noLoss ? "yes" : "no",
      details: { messages, logs, failed, received, seconds, sentSeconds, deliveriesPerSecond: rate },
    };
  } finally {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
}
