import { describe, expect, it } from "vitest";
import { statusCodeLabel, statusMeaning } from "@/lib/domain/status-meaning";

describe("statusMeaning", () => {
  it("explains 0 as no connection, per spec part 6", () => {
    const meaning = statusMeaning(0);
    expect(meaning).toMatchObject({ class: "none", title: "No connection", fromSpec: true });
    expect(meaning.cause).toMatch(/server down|not publicly reachable|SSL certificate/i);
    expect(meaning.nextStep).toMatch(/reachable/);
  });

  it.each([
    [401, /secret header/i],
    [404, /route does not exist/i],
    [500, /internal error/i],
  ])("gives the spec's cause for %i", (code, cause) => {
    const meaning = statusMeaning(code);
    expect(meaning.fromSpec).toBe(true);
    expect(meaning.cause).toMatch(cause);
    expect(meaning.nextStep.length).toBeGreaterThan(20);
  });

  it("says a 2xx needs nothing", () => {
    for (const code of [200, 201, 204, 299]) {
      expect(statusMeaning(code)).toMatchObject({ class: "success", fromSpec: false });
      expect(statusMeaning(code).nextStep).toMatch(/Nothing to fix/);
    }
    expect(statusMeaning(200).title).toBe("HTTP 200 OK");
    expect(statusMeaning(299).title).toBe("HTTP 299");
  });

  it("explains a redirect as a failure to fix in the endpoint URL", () => {
    const meaning = statusMeaning(301);
    expect(meaning.class).toBe("redirect");
    expect(meaning.nextStep).toMatch(/final address/);
  });

  it("has class texts for other 4xx and 5xx, and specific ones for common codes", () => {
    expect(statusMeaning(418)).toMatchObject({ class: "client-error", title: "HTTP 418" });
    expect(statusMeaning(418).cause).toMatch(/4xx/);
    expect(statusMeaning(599)).toMatchObject({ class: "server-error" });
    expect(statusMeaning(599).cause).toMatch(/5xx/);
    expect(statusMeaning(403).cause).toMatch(/firewall|allow-list/);
    expect(statusMeaning(429).cause).toMatch(/rate-limiting/);
    expect(statusMeaning(503).cause).toMatch(/unavailable/);
  });

  it("copes with codes outside HTTP", () => {
    expect(statusMeaning(1000).class).toBe("unknown");
    expect(statusMeaning(-1).class).toBe("unknown");
    expect(statusMeaning(42).class).toBe("unknown");
    expect(statusMeaning(102).class).toBe("informational");
  });
});

describe("where the words point", () => {
  // A delivery's details put the response body first on a phone and after the outcome on a wider
  // screen: the words name a part by its heading, never by where it sits.
  const CODES = [0, -1, 42, 1000, ...Array.from({ length: 500 }, (_, i) => 100 + i)];
  it.each(CODES)("%i: neither its cause nor its next step says above, below, left or right", (code) => {
    const { cause, nextStep } = statusMeaning(code);
    expect(`${cause} ${nextStep}`).not.toMatch(/\b(above|below|left|right|beneath|underneath)\b/i);
  });

  it("500 points at the delivery's Response body by its heading", () => {
    expect(statusMeaning(500).nextStep).toContain('the delivery\'s "Response body" may show the error');
  });
});

describe("statusCodeLabel", () => {
  it("reads 0 as No connection", () => {
    expect(statusCodeLabel(0)).toBe("No connection");
    expect(statusCodeLabel(404)).toBe("404");
  });
});
