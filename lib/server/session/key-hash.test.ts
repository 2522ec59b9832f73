import { afterEach, describe, expect, it } from "vitest";
import { apiKeyHash } from "@/lib/server/session/key-hash";
import { restoreEnv, stubEnv } from "@/tests/support/env";

const SECRET_A = "a".repeat(40);
const SECRET_B = "b".repeat(40);

describe("apiKeyHash", () => {
  afterEach(restoreEnv);

  it("is stable for one key and differs between keys", () => {
    stubEnv({ SESSION_SECRET: SECRET_A });
    expect(apiKeyHash("key-one-123456")).toBe(apiKeyHash("key-one-123456"));
    expect(apiKeyHash("key-one-123456")).not.toBe(apiKeyHash("key-two-123456"));
  });

  it("never contains the key, and depends on the secret", () => {
    stubEnv({ SESSION_SECRET: SECRET_A });
    const underA = apiKeyHash("key-one-123456");
    expect(underA).not.toContain("key-one");
    expect(underA).toMatch(/^[A-Za-z0-9_-]{43}$/);
    stubEnv({ SESSION_SECRET: SECRET_B });
    expect(apiKeyHash("key-one-123456")).not.toBe(underA);
  });
});
