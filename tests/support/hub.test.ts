import { describe, expect, it } from "vitest";
import { sessionCookie } from "./hub";

describe("sessionCookie", () => {
  it("takes name=value of the first cookie with a value", () => {
    expect(sessionCookie(["__Host-hub_console=abc.def; Path=/; HttpOnly; Secure; SameSite=Lax"])).toBe(
      "__Host-hub_console=abc.def",
    );
    expect(sessionCookie(["gone=; Max-Age=0", "hub_console=x=y; Path=/"])).toBe("hub_console=x=y");
    expect(sessionCookie([])).toBeNull();
  });
});
