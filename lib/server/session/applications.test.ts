import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sealData } from "iron-session";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { APPLICATIONS_MAX, APPLICATION_NAME_MAX } from "@/lib/domain/applications";
import { AppError } from "@/lib/server/app-error";
import {
  addApplication,
  markRejected,
  removeApplication,
  renameApplication,
  replaceKey,
  switchApplication,
} from "@/lib/server/session/applications";
import { applicationId } from "@/lib/server/session/key-hash";
import {
  SESSION_COOKIE_MAX,
  applicationOf,
  openSeal,
  revokeSession,
  sealedCookie,
  sessionCookie,
  type SessionData,
} from "@/lib/server/session/session";

const SECRET = "applications-test-secret-0123456789abcdef";
const FIRST = "mh_live_0f1e2d3c4b5a69788796a5b4c3d2e1f0aa11";

/** A key like the hub's (mh_live_ and 56 hex characters: 64 in all), distinct per n. */
function realisticKey(n: number): string {
  return `mh_live_${n.toString(16).padStart(8, "0")}${"a1b2c3d4e5f60718".repeat(3)}`;
}

function sealOf(setCookie: string): string {
  return setCookie.split(";")[0]!.split("=").slice(1).join("=");
}

async function signedIn(now = Date.now()): Promise<SessionData> {
  return (await sessionCookie(FIRST, now)).data;
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("was not refused");
}

beforeEach(() => stubEnv({ SESSION_SECRET: SECRET, SESSION_SECRET_PREVIOUS: "", SESSION_TTL_SECONDS: "" }));
afterEach(restoreEnv);

describe("the applications of a session", () => {
  it("a sign-in holds one application, current, named Default; ids are 16 hex characters, never the key", async () => {
    const data = await signedIn();
    expect(data.applications).toEqual([
      { id: applicationId(FIRST), name: "Default", apiKey: FIRST, keyHint: "aa11", rejected: false },
    ]);
    expect(data.current).toBe(applicationId(FIRST));
    expect(data.current).toMatch(/^[0-9a-f]{16}$/);
    expect(FIRST).not.toContain(data.current);
  });

  it("adds up to APPLICATIONS_MAX, then refuses with a message saying what to do; the current one stays", async () => {
    let data = await signedIn();
    for (let n = 1; n < APPLICATIONS_MAX; n++)
      data = addApplication(data, { name: `App ${n}`, apiKey: realisticKey(n) });
    expect(data.applications).toHaveLength(APPLICATIONS_MAX);
    expect(data.current).toBe(applicationId(FIRST));
    const error = refusal(() => addApplication(data, { name: "One more", apiKey: realisticKey(99) }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/already holds 10 applications.*Remove one/);
  });

  it("refuses a name already used (whatever its case) and a key already added, naming the application that has it", async () => {
    const data = addApplication(await signedIn(), { name: "Staging", apiKey: realisticKey(1) });
    const taken = refusal(() => addApplication(data, { name: "  staging ", apiKey: realisticKey(2) }));
    expect(taken.fields).toEqual({
      name: ['An application is already named "Staging". Choose another name.'],
    });
    const twice = refusal(() => addApplication(data, { name: "Other", apiKey: realisticKey(1) }));
    expect(twice.fields).toEqual({
      apiKey: ['API key: this key is already added, as "Staging". Each application is added once.'],
    });
    expect(twice.message).not.toContain(realisticKey(1));
  });

  it("switches, and an id the session does not hold is not found (no hub call is possible: no key)", async () => {
    const data = addApplication(await signedIn(), { name: "Staging", apiKey: realisticKey(1) });
    const staging = applicationId(realisticKey(1));
    expect(switchApplication(data, staging).current).toBe(staging);
    const unknown = "0123456789abcdef";
    expect(refusal(() => switchApplication(data, unknown)).status).toBe(404);
    const state = { status: "signed_in" as const, data };
    expect(refusal(() => applicationOf(state, unknown).apiKey).code).toBe("not_found");
    expect(applicationOf(state, staging).apiKey).toBe(realisticKey(1));
    expect(applicationOf(state).apiKey).toBe(FIRST);
    expect(refusal(() => applicationOf({ status: "none" })).code).toBe("unauthorized");
    expect(refusal(() => applicationOf({ status: "ended" })).message).toMatch(/session has ended/);
  });

  it("removes one (the current one's place goes to the first left); the last one cannot be removed", async () => {
    let data = addApplication(await signedIn(), { name: "Staging", apiKey: realisticKey(1) });
    data = removeApplication(data, applicationId(FIRST));
    expect(data.applications.map((app) => app.name)).toEqual(["Staging"]);
    expect(data.current).toBe(applicationId(realisticKey(1)));
    expect(refusal(() => removeApplication(data, data.current)).message).toMatch(
      /only application.*sign out/,
    );
  });

  it("marks a rejected key, and replacing it clears the mark; its id follows the key; a key another one has is refused", async () => {
    let data = addApplication(await signedIn(), { name: "Staging", apiKey: realisticKey(1) });
    const staging = applicationId(realisticKey(1));
    data = markRejected(data, staging);
    expect(data.applications[1]!.rejected).toBe(true);
    expect(data.applications[0]!.rejected).toBe(false);
    // Said under the field, naming it by its label and what to paste instead.
    expect(refusal(() => replaceKey(data, staging, FIRST)).fields).toEqual({
      apiKey: [
        'New API key for Staging: this is the key of "Default", already in your session. Paste Staging\'s new key.',
      ],
    });
    const replaced = replaceKey(switchApplication(data, staging), staging, realisticKey(2));
    expect(replaced.applications[1]).toMatchObject({
      name: "Staging",
      rejected: false,
      keyHint: realisticKey(2).slice(-4),
    });
    expect(replaced.current).toBe(applicationId(realisticKey(2)));
  });

  it("renames, refusing a name another application has", async () => {
    const data = addApplication(await signedIn(), { name: "Staging", apiKey: realisticKey(1) });
    expect(renameApplication(data, data.current, "Production").applications[0]!.name).toBe("Production");
    expect(refusal(() => renameApplication(data, data.current, "STAGING")).status).toBe(400);
  });
});

describe("the sealed cookie", () => {
  it(`stays under 4 KB with ${APPLICATIONS_MAX} applications of realistic keys and ${APPLICATION_NAME_MAX}-character names`, async () => {
    let data = await signedIn();
    data = renameApplication(data, data.current, "P".repeat(APPLICATION_NAME_MAX));
    for (let n = 1; n < APPLICATIONS_MAX; n++) {
      const name = `${String(n).padStart(2, "0")} ${"Customer region staging ".repeat(2)}`.slice(
        0,
        APPLICATION_NAME_MAX,
      );
      data = addApplication(data, { name, apiKey: realisticKey(n) });
    }
    const setCookie = await sealedCookie(data);
    expect(setCookie.length).toBeLessThan(SESSION_COOKIE_MAX);
    // The figure the README quotes: printed so a change that grows it is seen.
    console.info(`[session] Set-Cookie with ${APPLICATIONS_MAX} applications: ${setCookie.length} bytes`);
    for (let n = 1; n < APPLICATIONS_MAX; n++) expect(setCookie).not.toContain(realisticKey(n));
    const opened = await openSeal(sealOf(setCookie));
    expect(opened.status === "signed_in" && opened.data).toEqual(data);
  });

  it("refuses to seal what would pass 4 KB (very long keys), saying what to do", async () => {
    let data = await signedIn();
    for (let n = 1; n < APPLICATIONS_MAX; n++)
      data = addApplication(data, { name: `App ${n}`, apiKey: `${realisticKey(n)}${"x".repeat(400)}` });
    await expect(sealedCookie(data)).rejects.toThrow(/no room for this key.*Remove an application/);
  });

  it("a re-sealed session keeps its id (so a sign-out ends it) and ends when the sign-in would have", async () => {
    stubEnv({ SESSION_TTL_SECONDS: "3600" });
    const signedInAt = Date.now() - 3000 * 1000;
    const data = addApplication(await signedIn(signedInAt), { name: "Staging", apiKey: realisticKey(1) });
    const setCookie = await sealedCookie(data);
    expect(setCookie).toMatch(/Max-Age=(599|600);/);
    const opened = await openSeal(sealOf(setCookie));
    expect(opened.status === "signed_in" && opened.data.sessionId).toBe(data.sessionId);
    await revokeSession(data);
    expect(await openSeal(sealOf(setCookie))).toEqual({ status: "ended" });
  });

  it("a cookie sealed before several applications (one key) opens as one application named Default", async () => {
    const id = /Fe26\.2\*(\d+)\*/.exec((await sessionCookie(FIRST)).setCookie)![1]!;
    const old = await sealData(
      { apiKey: FIRST, keyHint: "aa11", signedInAt: Date.now(), sessionId: "s".repeat(22) },
      { password: { [id]: SECRET }, ttl: 60 },
    );
    const opened = await openSeal(old);
    expect(
      opened.status === "signed_in" && opened.data.applications.map(({ name, apiKey }) => ({ name, apiKey })),
    ).toEqual([{ name: "Default", apiKey: FIRST }]);
  });
});
