import { describe, expect, it } from "vitest";
import { webhookName, webhookTitle } from "@/lib/domain/webhook-name";

const endpoint = "https://example.com/hooks/orders";

describe("webhookTitle", () => {
  it("is the webhook's name when the API returns one", () => {
    expect(webhookTitle({ endpoint, name: "Orders (prod)" })).toBe("Orders (prod)");
    expect(webhookName({ endpoint, name: "  Orders  " })).toBe("Orders");
  });

  it("is the endpoint when there is no usable name", () => {
    for (const name of [undefined, null, "", "   ", 42, { en: "Orders" }]) {
      expect(webhookTitle({ endpoint, name })).toBe(endpoint);
      expect(webhookName({ endpoint, name })).toBeNull();
    }
  });
});
