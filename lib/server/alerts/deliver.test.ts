/**
 * Delivering alerts for real: destinations stored sealed in the watch's store (SQLite and
 * PostgreSQL), alerts put in the outbox and sent by the dispatcher to receivers on loopback
 * (ALERTS_ALLOW_PRIVATE's policy) and to an SMTP listener on loopback, every attempt in the
 * delivery log. Signed webhooks verify with the Standard Webhooks reference code; a receiver
 * answering 500 then 200 is retried; the strict policy refuses loopback and logs "refused".
 * Retries, hangs, crashes and two instances: dispatch.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { testAlert, type AlertMessage } from "@/lib/domain/alerts/message";
import type { AlertPayload } from "@/lib/domain/alerts/render-json";
import type { DispatchSettings } from "@/lib/server/alerts/dispatch";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import {
  addDestination,
  listDestinations,
  openDestination,
  recentDeliveries,
  removeDestination,
} from "@/lib/server/alerts/destinations";
import type { StoreContext } from "@/lib/server/store/context";
import { replaceKey } from "@/lib/server/watch/watches";
import { applicationId } from "@/lib/server/session/key-hash";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";
import { startReceiver, type Answer, type TestReceiver } from "@/tests/sandbox/support/receiver";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";
import { dispatchUntilSettled, testDispatchSettings } from "@/tests/support/alert-outbox";

const databases = watchDatabases();
const APP = "0123456789abcdef";
const OTHER_APP = "fedcba9876543210";
const SECRET = `whsec_${Buffer.from("a signing secret of the tests, 32b").toString("base64")}`;

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(answer: (index: number) => Answer): Promise<TestReceiver> {
  const started: TestReceiver = await startReceiver(() => answer(started.requests.length - 1));
  receivers.push(started);
  return started;
}

function message(key = `test_${Math.random().toString(36).slice(2)}`): AlertMessage {
  return testAlert({
    idempotencyKey: key,
    at: new Date(),
    application: { id: APP, name: "Production" },
    destinationLabel: "Receiver",
    consoleUrl: "http://console.test/alerts",
  });
}

/** Stores a destination of APP, puts one alert in the outbox and dispatches it; resolves with its delivery as logged. */
async function sendTo(
  ctx: StoreContext,
  input: AddDestination,
  overrides: Partial<DispatchSettings> = {},
  sent: AlertMessage = message(),
) {
  await addDestination(ctx, APP, input);
  expect(await enqueueAlert(ctx, APP, sent)).toBe(1);
  const [delivery] = await dispatchUntilSettled(ctx, testDispatchSettings(overrides));
  return delivery!;
}

describe.each(WATCH_DATABASES)("destinations in the store (%s)", (kind) => {
  it("seals the secret parts, shows them masked, and keeps each application's to itself", async () => {
    const ctx = await databases.fresh(kind);
    const url = "https://hooks.slack.com/services/T000/B000/abcdefghijklmnop1a2b";
    const { destination } = await addDestination(ctx, APP, { kind: "slack", label: "On-call", url });
    const generated = await addDestination(ctx, APP, {
      kind: "webhook",
      label: "Ops bridge",
      url: "https://ops.example/hook",
      secret: "",
    });
    await addDestination(ctx, APP, { kind: "email", label: "Team", to: "oncall@example.com" });

    expect(destination).toMatchObject({
      kind: "slack",
      label: "On-call",
      target: "https://hooks.slack.com/…/••••1a2b",
    });
    expect(generated.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await listDestinations(ctx, APP);
    expect(listed.map((d) => [d.label, d.target])).toEqual([
      ["On-call", "https://hooks.slack.com/…/••••1a2b"],
      ["Ops bridge", "https://ops.example/…/••••"],
      ["Team", "o•••@example.com"],
    ]);
    const stored = JSON.stringify(await ctx.db.selectFrom("alert_destinations").selectAll().execute());
    for (const secret of [url, "abcdefghijklmnop", generated.signingSecret!, "oncall@example.com"]) {
      expect(stored).not.toContain(secret);
    }
    expect((await openDestination(ctx, APP, destination.id)).secrets).toEqual({ url });

    expect(await listDestinations(ctx, OTHER_APP)).toEqual([]);
    await expect(openDestination(ctx, OTHER_APP, destination.id)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(removeDestination(ctx, OTHER_APP, destination.id)).rejects.toMatchObject({
      code: "not_found",
    });
    await removeDestination(ctx, APP, destination.id);
    expect((await listDestinations(ctx, APP)).map((d) => d.label)).toEqual(["Ops bridge", "Team"]);
  });

  it("refuses a name the application's destinations already have, whatever its case, and stores nothing", async () => {
    const ctx = await databases.fresh(kind);
    await addDestination(ctx, APP, { kind: "email", label: "On-call", to: "oncall@example.com" });
    await expect(
      addDestination(ctx, APP, {
        kind: "slack",
        label: " on-CALL ",
        url: "https://hooks.slack.com/services/x",
      }),
    ).rejects.toMatchObject({
      code: "bad_request",
      fields: {
        label: [
          'Name: this application already has a destination named "on-CALL". Choose another name, or remove that one first.',
        ],
      },
    });
    expect((await listDestinations(ctx, APP)).map((d) => d.kind)).toEqual(["email"]);
    // Another application's names are its own.
    await addDestination(ctx, OTHER_APP, { kind: "email", label: "On-call", to: "other@example.com" });
    expect(await listDestinations(ctx, OTHER_APP)).toHaveLength(1);
  });

  it("refuses an address the application already sends to, by its field, and stores nothing", async () => {
    const ctx = await databases.fresh(kind);
    const url = "https://hooks.slack.com/services/T000/B000/Token";
    await addDestination(ctx, APP, { kind: "email", label: "Team", to: "oncall@example.com" });
    await addDestination(ctx, APP, { kind: "slack", label: "Slack", url });
    await expect(
      addDestination(ctx, APP, { kind: "email", label: "Team again", to: "OnCall@Example.com" }),
    ).rejects.toMatchObject({
      fields: {
        to: [
          'Email address: "Team" sends to this address already. Use another address, or remove that destination first.',
        ],
      },
    });
    await expect(
      addDestination(ctx, APP, { kind: "webhook", label: "Same URL", url, secret: "" }),
    ).rejects.toMatchObject({
      fields: { url: [expect.stringMatching(/^Webhook URL: "Slack" sends to this address already\./)] },
    });
    // A URL differing in case is another address (its token is case-sensitive).
    await addDestination(ctx, APP, { kind: "slack", label: "Other Slack", url: url.toLowerCase() });
    expect((await listDestinations(ctx, APP)).map((d) => d.label)).toEqual(["Other Slack", "Slack", "Team"]);
  });

  it("adds at once stop at the application's cap, and one address added at once is stored once", async () => {
    const ctx = await databases.fresh(kind);
    const capped = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        addDestination(
          ctx,
          APP,
          { kind: "slack", label: `S${i}`, url: `https://hooks.example/${i}` },
          Date.now(),
          4,
        ),
      ),
    );
    expect(capped.filter((result) => result.status === "fulfilled")).toHaveLength(4);
    for (const result of capped.filter((r) => r.status === "rejected"))
      expect(result.reason).toMatchObject({
        fields: { url: [expect.stringMatching(/^Slack webhook URL: this application has 4 destinations/)] },
      });
    expect(await listDestinations(ctx, APP)).toHaveLength(4);
    const same = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        addDestination(ctx, OTHER_APP, {
          kind: "slack",
          label: `Same ${i}`,
          url: "https://hooks.example/same",
        }),
      ),
    );
    expect(same.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await listDestinations(ctx, OTHER_APP)).toHaveLength(1);
  });

  it("a receiver answering 500 then 200 is retried, and the log shows two attempts, delivered", async () => {
    const ctx = await databases.fresh(kind);
    const target = await receiver((index) =>
      index === 0 ? { status: 500, body: "boom" } : { status: 200, body: "ok" },
    );
    const delivery = await sendTo(ctx, {
      kind: "slack",
      label: "Flaky",
      url: `${target.url}/slack`,
    });
    expect(delivery).toMatchObject({
      state: "delivered",
      attempts: 2,
      statusCode: 200,
      response: "ok",
      error: null,
    });
    expect(target.requests).toHaveLength(2);
    expect(target.requests[0]!.body).toBe(target.requests[1]!.body);
    expect(await recentDeliveries(ctx, APP)).toEqual([delivery]);
    expect(await recentDeliveries(ctx, OTHER_APP)).toEqual([]);
  });
});

describe("a key handed over (sqlite)", () => {
  afterEach(() => restoreEnv());

  it("keeps the application's destinations and their log under its new id", async () => {
    stubEnv({ SESSION_SECRET: "unit-test-session-secret-0123456789abcdef" });
    const ctx = await databases.fresh("sqlite");
    const oldAppId = applicationId("old-key-7f3a9c2e5b1d4e6f8a0b");
    const { destination } = await addDestination(ctx, oldAppId, {
      kind: "email",
      label: "Team",
      to: "oncall@example.com",
    });
    const { appId } = await replaceKey(ctx, oldAppId, "new-key-0a1b2c3d4e5f60718293");
    expect(appId).not.toBe(oldAppId);
    expect((await listDestinations(ctx, appId)).map((d) => d.id)).toEqual([destination.id]);
    expect(await listDestinations(ctx, oldAppId)).toEqual([]);
    expect((await openDestination(ctx, appId, destination.id)).secrets).toEqual({ to: "oncall@example.com" });
  });
});

describe("delivering (sqlite)", () => {
  it("a signed webhook verifies with the Standard Webhooks reference code, webhook-id being the idempotency key", async () => {
    const ctx = await databases.fresh("sqlite");
    const target = await receiver(() => ({ status: 204 }));
    const sent = message("alert_idem_42");
    const delivery = await sendTo(
      ctx,
      {
        kind: "webhook",
        label: "Signed",
        url: `${target.url}/hook`,
        secret: SECRET,
      },
      {},
      sent,
    );
    expect(delivery).toMatchObject({ state: "delivered", attempts: 1, statusCode: 204 });
    const [request] = target.requests;
    const headers = request!.headers as Record<string, string>;
    expect(headers["webhook-id"]).toBe("alert_idem_42");
    const verified = new Webhook(SECRET).verify(request!.body, headers) as AlertPayload;
    expect(verified).toEqual({ type: "alert.test", timestamp: sent.at, data: sent });
    expect(() =>
      new Webhook(SECRET).verify(request!.body.replace("Production", "Producti0n"), headers),
    ).toThrow();
    const otherSecret = `whsec_${Buffer.from("another secret, not the one used!").toString("base64")}`;
    expect(() => new Webhook(otherSecret).verify(request!.body, headers)).toThrow();
  });

  it("the strict policy refuses a loopback receiver without calling it, once, and logs it refused", async () => {
    const ctx = await databases.fresh("sqlite");
    const target = await receiver(() => ({ status: 200 }));
    const delivery = await sendTo(
      ctx,
      {
        kind: "slack",
        label: "Inside",
        url: target.url.replace("http://127.0.0.1", "https://localhost") + "/slack",
      },
      { policy: { allowPrivate: false, timeoutMs: 2000 } },
    );
    expect(delivery).toMatchObject({ state: "refused", attempts: 1, statusCode: null });
    expect(delivery.error).toMatch(/localhost is a name for this machine \(loopback\)/);
    expect(target.requests).toHaveLength(0);
  });

  it("a receiver answering 4xx is not retried", async () => {
    const ctx = await databases.fresh("sqlite");
    const target = await receiver(() => ({ status: 404, body: "no_service" }));
    const delivery = await sendTo(ctx, {
      kind: "slack",
      label: "Gone",
      url: `${target.url}/x`,
    });
    expect(delivery).toMatchObject({ state: "failed", attempts: 1, statusCode: 404, response: "no_service" });
    expect(target.requests).toHaveLength(1);
  });
});

describe("email (sqlite, an SMTP listener on loopback)", () => {
  let server: SMTPServer | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A relay that offers no STARTTLS (as one whose offer a man in the middle strips) and would take AUTH in clear. */
  async function listener(): Promise<{
    port: number;
    mails: Array<{ from: string; to: string[]; raw: string }>;
    /** The user names AUTH was sent with. */
    auths: string[];
  }> {
    const mails: Array<{ from: string; to: string[]; raw: string }> = [];
    const auths: string[] = [];
    server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, _session, callback) {
        auths.push(auth.username ?? "");
        callback(null, { user: auth.username });
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { port: (server.server.address() as AddressInfo).port, mails, auths };
  }

  const TEAM_EMAIL: AddDestination = { kind: "email", label: "Team", to: "oncall@example.com" };

  it("is delivered as text and HTML, and the log keeps the relay's reply", async () => {
    const ctx = await databases.fresh("sqlite");
    const smtp = await listener();
    const delivery = await sendTo(
      ctx,
      TEAM_EMAIL,
      {
        smtp: {
          url: `smtp://127.0.0.1:${smtp.port}`,
          from: "Console <alerts@console.test>",
          allowPlaintextAuth: false,
        },
      },
      message("alert_mail_1"),
    );
    expect(delivery).toMatchObject({ state: "delivered", attempts: 1, statusCode: 250 });
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail!.from).toBe("alerts@console.test");
    expect(mail!.to).toEqual(["oncall@example.com"]);
    // The subject is MIME-encoded (it holds an em dash).
    expect(mail!.raw).toMatch(/^Subject: =\?UTF-8\?Q\?Test_alert=3A_Production/m);
    expect(mail!.raw).toContain("Message-ID: <alert_mail_1@webhook-console>");
    expect(mail!.raw).toContain("text/plain");
    expect(mail!.raw).toContain("text/html");
  });

  it.each([
    {
      name: "credentials in SMTP_URL and no STARTTLS: fails, and no AUTH is sent",
      userinfo: "alerts:s3cret-pass@",
      allowPlaintextAuth: false,
      state: "failed",
      auths: [],
    },
    {
      name: "the same with SMTP_ALLOW_PLAINTEXT_AUTH=1: goes, credentials sent in clear",
      userinfo: "alerts:s3cret-pass@",
      allowPlaintextAuth: true,
      state: "delivered",
      auths: ["alerts"],
    },
    {
      name: "no credentials: goes without TLS, nothing to protect",
      userinfo: "",
      allowPlaintextAuth: false,
      state: "delivered",
      auths: [],
    },
  ])("$name", async ({ userinfo, allowPlaintextAuth, state, auths }) => {
    const ctx = await databases.fresh("sqlite");
    const smtp = await listener();
    const delivery = await sendTo(ctx, TEAM_EMAIL, {
      attempts: 1,
      smtp: {
        url: `smtp://${userinfo}127.0.0.1:${smtp.port}`,
        from: "alerts@console.test",
        allowPlaintextAuth,
      },
    });
    expect(delivery.state).toBe(state);
    expect(smtp.auths).toEqual(auths);
    expect(smtp.mails).toHaveLength(state === "delivered" ? 1 : 0);
    if (state === "failed") {
      expect(delivery.error).toBe(
        `SMTP_URL: the relay at 127.0.0.1:${smtp.port} did not start TLS (STARTTLS), so its user name and password were not sent. ` +
          "Use smtps:// or a relay that offers STARTTLS; on a trusted network, SMTP_ALLOW_PLAINTEXT_AUTH=1 sends them in clear.",
      );
      expect(JSON.stringify(delivery)).not.toContain("s3cret-pass");
    }
  });

  it("goes through the same address check: a loopback relay is refused under the strict policy", async () => {
    const ctx = await databases.fresh("sqlite");
    const smtp = await listener();
    const delivery = await sendTo(ctx, TEAM_EMAIL, {
      policy: { allowPrivate: false, timeoutMs: 2000 },
      smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: "alerts@console.test", allowPlaintextAuth: false },
    });
    expect(delivery).toMatchObject({ state: "refused", attempts: 1 });
    expect(delivery.error).toMatch(/SMTP_URL: 127\.0\.0\.1 is a loopback address/);
    expect(smtp.mails).toHaveLength(0);
  });
});
