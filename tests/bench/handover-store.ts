/**
 * The hand-over's measurements, run in their own process with the store's server modules
 * (`node --import tsx --conditions=react-server tests/bench/handover-store.ts <json>`); prints one
 * line of JSON. Input: `{ apiKey, large, small, samples, failures: [100, 1000] }`, where `large`
 * and `small` are SQLite stores filled by watch-store.ts under the key's application.
 *
 * - Find: `findAcross` over every watch of the large store ÷ the find route's question
 *   (`findLog` of lib/server/history/questions.ts) inside the small store's one webhook, whose copy
 *   holds its whole history, by a message id picked at random in each, in turns.
 * - Bundle: an incident of N failures (bodies with ids, emails and bearer tokens, several causes)
 *   collected newest first, built with the default redaction and the session key masked, and
 *   rendered as Markdown, HTML and JSON, the sizes in turns.
 */
import { findAcross } from "@/lib/server/watch/find-across";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { buildBundle } from "@/lib/domain/bundle/bundle";
import { IncidentCollector } from "@/lib/domain/bundle/incident";
import { renderBundle } from "@/lib/domain/bundle/render";
import { findLog, type Scope } from "@/lib/server/history/questions";
import { applicationId } from "@/lib/server/session/key-hash";
import { configuredStoreOptions, openStoreContext } from "@/lib/server/store/context";
import { rotationOrder } from "./stats";

interface Input {
  apiKey: string;
  large: string;
  small: string;
  samples: number;
  failures: [number, number];
}

const input = JSON.parse(process.argv[2] ?? "{}") as Input;

async function openStore(path: string) {
  const ctx = await openStoreContext({ ...configuredStoreOptions(), target: { kind: "sqlite", path } });
  const ids = await ctx.db
    .selectFrom("watch_logs")
    .select(["webhook_id", "message_id"])
    .where("message_id", "is not", null)
    .orderBy(sql`random()`)
    .limit(input.samples)
    .execute();
  return {
    ctx,
    targets: ids.map((row) => ({ webhookId: row.webhook_id, id: row.message_id! })),
  };
}

/** A webhook's whole copy: watch-store.ts's fill reads every log of it (history_complete). */
const wholeCopy = (webhookId: string): Scope => ({ webhookId, from: null, complete: true });

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const NOW = Date.now();
const webhook: Webhook = {
  id: randomUUID(),
  endpoint: "https://hooks.customer.example/messages?token=s3cr3t-value",
  eventType: "Message",
  active: true,
  numberOfErrors: 0,
};

/** Newest first: `failures` failures a minute apart with varied bodies, then the last success. */
function incidentLogs(failures: number): WebhookLog[] {
  const log = (i: number, ok: boolean, statusCode: number, body: string): WebhookLog => {
    const at = new Date(NOW - (i + 1) * 60_000).toISOString();
    return {
      id: randomUUID(),
      webhookId: webhook.id,
      statusCode,
      responseBody: body,
      status: ok ? "Success" : "Failed",
      sendAt: at,
      createdDate: at,
      messageId: randomUUID(),
      webhook: { id: webhook.id, endpoint: webhook.endpoint, eventType: "Message" },
    };
  };
  const logs = Array.from({ length: failures }, (_, i) =>
    i % 7 === 3
      ? log(i, false, 502, `<html><title>502 Bad Gateway</title><p>upstream ${i}</p></html>`)
      : log(
          i,
          false,
          500,
          JSON.stringify({
            error: "database connection lost",
            requestId: `req_${randomUUID()}`,
            contact: `ops+${i}@customer.example`,
            auth: `Bearer ${randomUUID().replaceAll("-", "")}`,
            at: new Date(NOW - i * 60_000).toISOString(),
          }),
        ),
  );
  return [...logs, log(failures, true, 200, '{"ok":true}')];
}

function bundleOf(logs: WebhookLog[]): number {
  const collector = new IncidentCollector({ from: NOW - 86_400_000 * 7, to: NOW });
  for (const entry of logs) if (!collector.add(entry)) break;
  const bundle = buildBundle({
    webhook,
    incident: collector.result(),
    timeZone: "Europe/Berlin",
    now: NOW,
    partial: null,
    redaction: { literals: [input.apiKey] },
  });
  return (["md", "html", "json"] as const).reduce(
    (size, format) => size + renderBundle(bundle, format).length,
    0,
  );
}

async function main(): Promise<void> {
  const appIds = [applicationId(input.apiKey)];
  const large = await openStore(input.large);
  const small = await openStore(input.small);
  const acrossMs: number[] = [];
  const insideMs: number[] = [];
  try {
    // One round of each first, unmeasured: the first query of a connection prepares its statements.
    await findAcross(large.ctx, appIds, { kind: "id", id: large.targets[0]!.id });
    await findLog(small.ctx.db, wholeCopy(small.targets[0]!.webhookId), {
      kind: "id",
      id: small.targets[0]!.id,
    });
    const next = [0, 0];
    for (const side of rotationOrder(2, input.samples)) {
      const i = next[side]!++;
      if (side === 0) {
        const target = large.targets[i % large.targets.length]!;
        const { ms, value } = await timed(() => findAcross(large.ctx, appIds, { kind: "id", id: target.id }));
        if (value?.watch.webhookId !== target.webhookId) throw new Error(`findAcross missed ${target.id}`);
        acrossMs.push(ms);
      } else {
        const target = small.targets[i % small.targets.length]!;
        const { ms, value } = await timed(() =>
          findLog(small.ctx.db, wholeCopy(target.webhookId), { kind: "id", id: target.id }),
        );
        if (!value) throw new Error(`findLog missed ${target.id}`);
        insideMs.push(ms);
      }
    }
  } finally {
    await large.ctx.db.destroy();
    await small.ctx.db.destroy();
  }

  const sides = input.failures.map((failures) => ({
    failures,
    logs: incidentLogs(failures),
    ms: [] as number[],
    chars: 0,
  }));
  for (const side of sides) side.chars = bundleOf(side.logs);
  for (const index of rotationOrder(2, input.samples)) {
    const side = sides[index]!;
    side.ms.push((await timed(() => bundleOf(side.logs))).ms);
  }
  process.stdout.write(
    `${JSON.stringify({
      find: { acrossMs, insideMs },
      bundle: sides.map(({ failures, ms, chars }) => ({ failures, ms, chars })),
    })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `handover-store: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
