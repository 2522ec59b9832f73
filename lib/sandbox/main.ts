/**
 * `npm run sandbox`: starts the sandbox hub from the environment (see README.md beside this file)
 * and prints how to use it. SIGINT/SIGTERM stop it gracefully; a second signal stops it at once.
 *
 * The first line printed is always `Messaging Hub sandbox listening on <url>` (the launcher and
 * the crash test read the port from it).
 */
import path from "node:path";
import { DEFAULTS, optionsFromEnv, READY_LINE_PREFIX, type SandboxOptions } from "./config";
import { describeFaults } from "./faults";
import { INBOX_PATH, INBOX_SIGNING_SECRET } from "./inbox";
import { startSandbox, type Sandbox } from "./server";

function banner(sandbox: Sandbox, dbPath: string, adminToken: boolean): string {
  const demo = sandbox.demo();
  const lines = [
    `${READY_LINE_PREFIX}${sandbox.url}`,
    `  port ${sandbox.port}, database ${dbPath === ":memory:" ? ":memory:" : path.resolve(dbPath)}`,
    "",
  ];
  if (demo) {
    lines.push(
      `Demo application ${demo.applicationId}`,
      `  API key (x-api-key): ${demo.keyIsCurrent ? demo.apiKey : "(rotated: start on a fresh SANDBOX_DB to get the demo key back)"}`,
      `  channels: ${demo.channels.map((c) => `${c.kind} ${c.id}`).join(", ")}`,
      "  webhooks:",
      ...demo.webhooks.map((w) => `    ${w.id}  ${w.active ? "active  " : "inactive"}  ${w.label}`),
      "",
      ...demo.applications
        .slice(1)
        .flatMap((app) => [
          `${app.name} (a second demo application) ${app.applicationId}`,
          `  API key (x-api-key): ${app.keyIsCurrent ? app.apiKey : "(rotated)"}`,
          ...app.webhooks.map((w) => `    ${w.id}  ${w.label}`),
          "",
        ]),
      "Try it:",
      `  curl -H 'x-api-key: ${demo.apiKey}' ${sandbox.url}/v1/organization/webhook/${demo.webhooks[0]?.id ?? "<webhookId>"}/webhook-log`,
      `  curl -H 'x-api-key: ${demo.apiKey}' -H 'content-type: application/json' \\`,
      `    -d '{"from":"${demo.channels[0]?.id ?? "<channelId>"}","to":"5511999990000","content":{"text":"hello"}}' \\`,
      `    ${sandbox.url}/v1/communication/${demo.channels[0]?.kind ?? "whatsapp"}/message`,
      "",
    );
  } else {
    lines.push("No demo data (SANDBOX_SEED=none, or a database created without it).", "");
  }
  lines.push(
    `Admin routes (${adminToken ? "need 'Authorization: Bearer $SANDBOX_ADMIN_TOKEN'" : "loopback callers only; set SANDBOX_ADMIN_TOKEN to use a token"}):`,
    "  POST  /_sandbox/applications {name}                       -> {id, name, apiKey}",
    "  POST  /_sandbox/applications/{id}/api-key                  -> {apiKey}  (rotates; the old key stops working)",
    "  POST  /_sandbox/applications/{id}/channels {kind}          -> {id, kind}",
    "  POST  /_sandbox/applications/{id}/webhooks {endpoint, eventType, active} -> webhook with its secret",
    "  GET   /_sandbox/applications/{id}/webhooks                 -> {data: [webhooks]}",
    "  PATCH /_sandbox/webhooks/{id} {active?, endpoint?}         -> webhook",
    "  GET   /_sandbox/demo   GET /_sandbox/stats   GET /_sandbox/health (open)",
    "  GET|PUT|DELETE /_sandbox/faults {latencyMs, errorRate, rateLimitRate, garbleRate, ...} -> fault injection on /v1",
  );
  if (sandbox.faults.active) {
    lines.push(
      "",
      `FAULT INJECTION ON: ${describeFaults(sandbox.faults.settings)}`,
      `  (from SANDBOX_FAULT_*; switch off with: curl -X DELETE -H 'content-type: application/json' ${sandbox.url}/_sandbox/faults)`,
    );
  }
  lines.push(
    "",
    "Alert inbox (destinations for the console's Alerts page, where a console started by npm start offers",
    '  "Add the sandbox inbox"; what arrives: GET /_sandbox/inbox):',
    `  Slack incoming webhook: ${sandbox.url}${INBOX_PATH}/slack`,
    `  Signed JSON webhook:    ${sandbox.url}${INBOX_PATH}/webhook  (signing secret ${INBOX_SIGNING_SECRET})`,
    `  Email: SMTP_URL=smtp://${new URL(sandbox.url).hostname}:${sandbox.smtpPort}`,
    `  Microsoft Teams:        ${sandbox.url}${INBOX_PATH}/teams    (what arrived: GET it)`,
    `  Discord:                ${sandbox.url}${INBOX_PATH}/discord  (what arrived: GET it)`,
    `  PagerDuty: ALERTS_PAGERDUTY_EVENTS_URL=${sandbox.url}${INBOX_PATH}/pagerduty  (what arrived: GET it)`,
    "Stop with Ctrl+C.",
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  let options: SandboxOptions;
  try {
    options = optionsFromEnv(process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    process.stderr.write(
      `The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `${banner(sandbox, options.dbPath ?? DEFAULTS.dbPath, Boolean(options.adminToken))}\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`sandbox: ${signal} again, stopping now\n`);
      process.exit(130);
    }
    stopping = true;
    process.stderr.write(`sandbox: ${signal} received, finishing deliveries in flight (up to 2 s)...\n`);
    sandbox.close({ graceMs: 2000 }).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
