/**
 * `POST /api/session` refuses a malformed key before anything else, in words a person reads:
 * the field's label and what to do, never the key itself.
 */
import { describe, expect, it } from "vitest";
import { request, errorOf, fakeHubForRoutes } from "@/tests/support/route-requests";
import * as sessionRoute from "@/app/api/session/route";

const fake = fakeHubForRoutes();

describe("POST /api/session with a malformed key", () => {
  it.each([
    [{ apiKey: "short" }, "API key: enter at least 8 characters: paste the whole key."],
    [{ apiKey: "   " }, "API key: enter your API key."],
    [{}, "API key: enter your API key."],
    [{ apiKey: "k".repeat(513) }, "API key: shorten it to 512 characters or fewer (it has 513)."],
    [{ apiKey: "with a space inside" }, /^API key: use only printable ASCII characters without spaces/],
    [{ apiKey: "valid-key-0123456789", extra: 1 }, "extra: this request does not take it; leave it out."],
  ])("%j: 400 saying what to do, nothing upstream, no cookie", async (body, message) => {
    const response = await sessionRoute.POST(request("POST", "/api/session", { body }));
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
    const error = await errorOf(response);
    if (typeof message === "string") expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/request body|not valid|apiKey/);
    if ("apiKey" in body) expect(error.message).not.toContain(body.apiKey);
    expect(fake.requests).toHaveLength(0);
  });
});
