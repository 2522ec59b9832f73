/**
 * Sign-outs without Redis, in the console's database, on each database it runs on: a signed-out
 * cookie stays refused after a restart (a new process: a new connection, a new revocation list)
 * and on another instance of the same database, until it would have expired; expired rows are
 * pruned; a database that does not answer never stops a request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { WATCH_DATABASES, watchDatabases, type WatchDatabaseKind } from "@/tests/support/watch-databases";
import { openSeal, revokeSession, sessionCookie } from "@/lib/server/session/session";
import { DatabaseRevocations } from "@/lib/server/shared-state/database-revocations";
import { Revocations } from "@/lib/server/shared-state/revocations";
import { openStoreContext, sharedStoreContext } from "@/lib/server/store/context";
import type { StoreContext } from "@/lib/server/store/context";

const databases = watchDatabases();
const folder = mkdtempSync(path.join(tmpdir(), "revocations-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;

/** The variables that point a console at one database of `kind`, fresh. */
async function databaseEnv(kind: WatchDatabaseKind): Promise<Record<string, string>> {
  return kind === "sqlite"
    ? { WATCH_DB: path.join(folder, `console-${++files}.sqlite`), DATABASE_URL: "" }
    : { DATABASE_URL: await databases.freshPostgresUrl() };
}

/**
 * Ends this "process": its database connection and its revocation list go, as they do when the
 * console stops. The next call opens both again from the configuration.
 */
async function stopProcess(): Promise<void> {
  const shared = globalThis as Record<string | symbol, unknown>;
  const store = shared[Symbol.for("hub-console.watch-store")] as
    { context?: Promise<StoreContext> } | undefined;
  if (store?.context) await (await store.context).db.destroy();
  delete shared[Symbol.for("hub-console.watch-store")];
  delete shared.__hubConsoleRevocations;
}

function sealOf(setCookie: string): string {
  return setCookie.split(";")[0]!.split("=").slice(1).join("=");
}

afterEach(async () => {
  await stopProcess();
  restoreEnv();
});

describe.each(WATCH_DATABASES)("sign-outs without Redis, on %s", (kind) => {
  it("a signed-out cookie is still refused after a restart, and another session is not", async () => {
    stubEnv({
      SESSION_SECRET: "revocations-test-secret-0123456789abcdef",
      REDIS_URL: "",
      ...(await databaseEnv(kind)),
    });
    const signedOut = await sessionCookie("revoked-key-0123456789abcdef");
    const kept = await sessionCookie("kept-key-0123456789abcdef");
    await revokeSession(signedOut.data);
    expect(await openSeal(sealOf(signedOut.setCookie))).toEqual({ status: "ended" });

    await stopProcess();
    // A console opens (and migrates) its database at start, before any request (boot.ts), so the
    // first check after a restart does not spend its short timeout on that.
    await sharedStoreContext();
    expect(await openSeal(sealOf(signedOut.setCookie))).toEqual({ status: "ended" });
    expect((await openSeal(sealOf(kept.setCookie))).status).toBe("signed_in");
  });

  it("another instance on the same database refuses it at once; an expired row is pruned", async () => {
    const env = await databaseEnv(kind);
    const target =
      kind === "sqlite"
        ? ({ kind: "sqlite", path: env.WATCH_DB! } as const)
        : ({ kind: "postgres", url: env.DATABASE_URL! } as const);
    const open = () =>
      openStoreContext({ target, secrets: ["a-watch-secret-for-tests-32-chars!!"], bodyCapBytes: 64 });
    const [one, two] = [await open(), await open()];
    try {
      const a = new Revocations(new DatabaseRevocations(async () => one));
      const b = new Revocations(new DatabaseRevocations(async () => two));
      await a.revoke("session-one-0123456789", Date.now() + 60_000);
      await a.revoke("session-short-0123456789", Date.now() + 200);
      expect(await b.isRevoked("session-one-0123456789")).toBe(true);
      expect(await b.isRevoked("session-never-0123456789")).toBe(false);

      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await b.isRevoked("session-short-0123456789")).toBe(false);
      await b.revoke("session-two-0123456789", Date.now() + 60_000);
      const rows = await two.db
        .selectFrom("revoked_sessions")
        .select("session_id")
        .orderBy("session_id")
        .execute();
      expect(rows.map((row) => row.session_id)).toEqual(["session-one-0123456789", "session-two-0123456789"]);
    } finally {
      await Promise.all([one.db.destroy(), two.db.destroy()]);
    }
  });
});

describe("a database that does not answer", () => {
  it("costs one short wait, fails open, logs once, and gets what waited once it answers", async () => {
    const logs: string[] = [];
    const log = { info: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
    let ctx: Promise<StoreContext> = new Promise(() => undefined);
    const shared = new DatabaseRevocations(() => ctx, log);
    const revocations = new Revocations(shared);

    const started = performance.now();
    await revocations.revoke("session-one-0123456789", Date.now() + 60_000);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(revocations.waitingToShare()).toBe(1);
    expect(await revocations.isRevoked("session-one-0123456789")).toBe(true); // recorded here
    const quick = performance.now();
    expect(await shared.has("session-one-0123456789")).toBeUndefined();
    expect(performance.now() - quick).toBeLessThan(50);
    expect(logs.filter((line) => line.includes("did not answer"))).toHaveLength(1);

    ctx = databases.fresh("sqlite");
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // The first call that answers writes what waited.
    expect(await shared.has("session-two-0123456789")).toBe(false);
    for (let i = 0; i < 50 && revocations.waitingToShare() > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(revocations.waitingToShare()).toBe(0);
    expect(await shared.has("session-one-0123456789")).toBe(true);
    expect(logs.filter((line) => line.includes("answers again"))).toHaveLength(1);
  });
});
