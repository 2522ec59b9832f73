import { describe, expect, it } from "vitest";
import { issueLogView, issueTitle } from "@/lib/domain/watch/failure-issue";

describe("an issue's log view and title", () => {
  it("filters the table to the issue itself, not to every failure of its code", () => {
    expect(issueLogView({ id: "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e" })).toEqual({
      status: "Failed",
      issue: "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e",
    });
  });

  it("names the issue by its code and its cause", () => {
    expect(issueTitle({ statusCode: 500, signatureText: "database connection lost" })).toBe(
      "500 · database connection lost",
    );
    expect(issueTitle({ statusCode: 0, signatureText: "" })).toBe("No connection · empty response");
  });
});
