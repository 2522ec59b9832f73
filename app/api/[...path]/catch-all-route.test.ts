/** The catch-all under /api: an unknown path is a JSON 404, after the same-origin check. */
import { describe, expect, it } from "vitest";
import { ctx, errorOf, fakeHubForRoutes, request } from "@/tests/support/route-requests";

fakeHubForRoutes();

describe("unknown /api paths", () => {
  it("answer a JSON 404, also for state-changing methods (after the same-origin check)", async () => {
    const catchAll = await import("@/app/api/[...path]/route");
    const get = await catchAll.GET(request("GET", "/api/nope"), ctx({ path: "nope" }));
    expect(get.status).toBe(404);
    expect((await errorOf(get)).code).toBe("not_found");
    const crossSite = await catchAll.POST(
      request("POST", "/api/nope", { headers: { "sec-fetch-site": "cross-site" } }),
      ctx({ path: "nope" }),
    );
    expect(crossSite.status).toBe(403);
  });
});
