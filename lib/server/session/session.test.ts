import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sealData } from "iron-session";
import { restoreEnv, stubEnv as env } from "@/tests/support/env";
import {
  clearedSessionCookie,
  cookieValue,
  keyHint,
  openSeal,
  revokeSession,
  sessionCookie,
  sessionCookieName,
} from "@/lib/server/session/session";

const OLD = "old-session-secret-aaaaaaaaaaaaaaaaaaaaaaaa";
const NEW = "new-session-secret-bbbbbbbbbbbbbbbbbbbbbbbb";
const KEY = "session-test-key-1234567890";

function sealOf(setCookie: string): string {
  return setCookie.split(";")[0]!.split("=").slice(1).join("=");
}

beforeEach(() =>
  env({
    SESSION_SECRET: OLD,
    SESSION_SECRET_PREVIOUS: "",
    SESSION_TTL_SECONDS: "",
    SESSION_COOKIE_INSECURE: "",
  }),
);
afterEach(() => {
  vi.useRealTimers();
  restoreEnv();
});

describe("session cookie", () => {
  it("outside production: hub_console, httpOnly, SameSite=Lax, Path=/, not Secure, Max-Age = SESSION_TTL_SECONDS", async () => {
    env({ SESSION_TTL_SECONDS: "3600" });
    const { setCookie } = await sessionCookie(KEY);
    expect(sessionCookieName()).toBe("hub_console");
    expect(setCookie).toMatch(/^hub_console=Fe26\.2\*\d+\*/);
    expect(setCookie).toContain("; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax");
    expect(setCookie).not.toMatch(/Secure|Domain/i);
  });

  it("in production: __Host-hub_console, Secure, Path=/, no Domain", async () => {
    env({ NODE_ENV: "production" });
    const { setCookie } = await sessionCookie(KEY);
    expect(setCookie).toMatch(/^__Host-hub_console=/);
    expect(setCookie).toMatch(/; Secure$/);
    expect(setCookie).toContain("Path=/;");
    expect(setCookie).not.toMatch(/Domain/i);
    expect(clearedSessionCookie()).toBe(
      "__Host-hub_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure",
    );
  });

  it("in production with SESSION_COOKIE_INSECURE=1 (plain http on a trusted network): hub_console, not Secure", async () => {
    env({ NODE_ENV: "production", SESSION_COOKIE_INSECURE: "1" });
    const { setCookie } = await sessionCookie(KEY);
    expect(setCookie).toMatch(/^hub_console=/);
    expect(setCookie).not.toContain("Secure");
  });

  it("seals the key: the cookie does not contain it, and opens back to it", async () => {
    const { setCookie } = await sessionCookie(KEY, 1_700_000_000_000);
    expect(setCookie).not.toContain(KEY);
    expect(await openSeal(sealOf(setCookie))).toEqual({
      status: "signed_in",
      data: {
        applications: [
          {
            id: expect.stringMatching(/^[0-9a-f]{16}$/),
            name: "Default",
            apiKey: KEY,
            keyHint: "7890",
            rejected: false,
          },
        ],
        current: expect.stringMatching(/^[0-9a-f]{16}$/),
        signedInAt: 1_700_000_000_000,
        sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      },
    });
  });

  it("treats a tampered, foreign or malformed cookie as ended, never throwing", async () => {
    const seal = sealOf((await sessionCookie(KEY)).setCookie);
    const flipped = seal.slice(0, -3) + (seal.endsWith("A") ? "BBB" : "AAA");
    for (const bad of [
      flipped,
      "Fe26.2*1*x",
      "garbage",
      "Fe26.2**a*b*c*d*e*f",
      "%%%",
      "Fe26.1*1*a*b*c*d*e*f",
    ]) {
      expect(await openSeal(bad)).toEqual({ status: "ended" });
    }
    expect(await openSeal(undefined)).toEqual({ status: "none" });
    expect(await openSeal("")).toEqual({ status: "none" });
  });

  it("treats a sealed object that is not a session as ended", async () => {
    const { setCookie } = await sessionCookie(KEY);
    const id = /Fe26\.2\*(\d+)\*/.exec(setCookie)![1]!;
    const other = await sealData({ admin: true }, { password: { [id]: OLD }, ttl: 60 });
    expect(await openSeal(other)).toEqual({ status: "ended" });
  });

  it("ends after SESSION_TTL_SECONDS", async () => {
    env({ SESSION_TTL_SECONDS: "120" });
    vi.useFakeTimers({ toFake: ["Date"] });
    const seal = sealOf((await sessionCookie(KEY)).setCookie);
    vi.setSystemTime(Date.now() + 100_000);
    expect((await openSeal(seal)).status).toBe("signed_in");
    vi.setSystemTime(Date.now() + 90_000); // past 120 s + iron's 60 s clock skew
    expect(await openSeal(seal)).toEqual({ status: "ended" });
  });
});

describe("sign-out (revocation), without Redis", () => {
  it("a revoked session is ended from then on, even a seal opened before; others stay signed in", async () => {
    const seal = sealOf((await sessionCookie(KEY)).setCookie);
    const other = sealOf((await sessionCookie(KEY)).setCookie);
    const opened = await openSeal(seal);
    expect(opened.status).toBe("signed_in");
    if (opened.status !== "signed_in") return;
    await revokeSession(opened.data);
    expect(await openSeal(seal)).toEqual({ status: "ended" });
    expect((await openSeal(other)).status).toBe("signed_in");
  });

  it("each sign-in gets its own session id; a sealed session without one (an older cookie) is ended", async () => {
    const one = await openSeal(sealOf((await sessionCookie(KEY)).setCookie));
    const two = await openSeal(sealOf((await sessionCookie(KEY)).setCookie));
    expect(one.status === "signed_in" && two.status === "signed_in").toBe(true);
    if (one.status !== "signed_in" || two.status !== "signed_in") return;
    expect(one.data.sessionId).not.toBe(two.data.sessionId);
    const id = /Fe26\.2\*(\d+)\*/.exec((await sessionCookie(KEY)).setCookie)![1]!;
    const older = await sealData(
      { apiKey: KEY, keyHint: "7890", signedInAt: Date.now() },
      { password: { [id]: OLD }, ttl: 60 },
    );
    expect(await openSeal(older)).toEqual({ status: "ended" });
  });
});

describe("secret rotation", () => {
  it("SESSION_SECRET_PREVIOUS still opens old cookies; new cookies are sealed with SESSION_SECRET only", async () => {
    const oldSeal = sealOf((await sessionCookie(KEY)).setCookie);

    env({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD });
    expect((await openSeal(oldSeal)).status).toBe("signed_in");
    const newSeal = sealOf((await sessionCookie(KEY)).setCookie);

    env({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: "" });
    expect((await openSeal(newSeal)).status).toBe("signed_in");
    expect(await openSeal(oldSeal)).toEqual({ status: "ended" });
  });

  it("keeps working when an older secret is dropped from the middle of the list (ids come from the secrets)", async () => {
    const third = "third-session-secret-cccccccccccccccccccccc";
    env({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: `${OLD}` });
    const sealedWithNew = sealOf((await sessionCookie(KEY)).setCookie);
    env({ SESSION_SECRET: third, SESSION_SECRET_PREVIOUS: `${NEW}` });
    expect((await openSeal(sealedWithNew)).status).toBe("signed_in");
  });
});

describe("helpers", () => {
  it("keyHint shows at most the last 4 characters, and nothing for short keys", () => {
    expect(keyHint("abcdefghijkl")).toBe("ijkl");
    expect(keyHint("abcdefghi")).toBe("fghi");
    expect(keyHint("abcdefgh")).toBe("");
    expect(keyHint("")).toBe("");
  });

  it("cookieValue reads one cookie, the first when repeated", () => {
    expect(cookieValue("a=1; hub_console=x=y; b=2", "hub_console")).toBe("x=y");
    expect(cookieValue("hub_console=first; hub_console=second", "hub_console")).toBe("first");
    expect(cookieValue("xhub_console=1", "hub_console")).toBeUndefined();
    expect(cookieValue(null, "hub_console")).toBeUndefined();
  });
});
