import { describe, expect, it } from "vitest";
import {
  MASK,
  PATTERN_BUDGET_MS,
  RedactionError,
  compilePattern,
  createRedactor,
} from "@/lib/domain/redact";

function redactOnce(text: string, options: Parameters<typeof createRedactor>[0] = {}) {
  const redactor = createRedactor(options);
  const out = redactor.redact(text);
  return { out, report: redactor.report() };
}

describe("default rules", () => {
  it.each([
    [
      "Bearer tokens",
      "Authorization: Bearer eyJhbGciOi.abc-DEF_123",
      "Authorization: Bearer [redacted]",
      "eyJhbGciOi",
    ],
    [
      "Basic-auth credentials",
      "Authorization: Basic dXNlcjpodW50ZXIy",
      "Authorization: Basic [redacted]",
      "dXNlcjpodW50ZXIy",
    ],
    [
      "URL credentials",
      "POST https://admin:hunter2@example.test/hook",
      "POST https://[redacted]@example.test/hook",
      "hunter2",
    ],
    [
      "Secrets in URLs",
      "GET /cb?user=7&token=s3cr3t-value&x=1",
      "GET /cb?user=7&token=[redacted]&x=1",
      "s3cr3t-value",
    ],
    [
      "Secrets in URLs",
      "https://h.test/p?signature=abcdef0123&key=k-123",
      "https://h.test/p?signature=[redacted]&key=[redacted]",
      "abcdef0123",
    ],
    ["API keys", '{"apiKey": "live_9f8e7d6c5b4a"}', '{"apiKey": "[redacted]"}', "live_9f8e7d6c5b4a"],
    [
      "API keys",
      "stripe said sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "stripe said [redacted]",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    ],
    ["API keys", "password=hunter22; user=bob", "password=[redacted]; user=bob", "hunter22"],
    [
      "Email addresses",
      "contact jane.doe+ops@example.com now",
      "contact [redacted] now",
      "jane.doe+ops@example.com",
    ],
    [
      "Phone numbers",
      "call +44 20 7946 0958 or (555) 123-4567",
      "call [redacted] or [redacted]",
      "7946 0958",
    ],
    [
      "Phone numbers",
      '{"error":"invalid recipient 5511999990000","to":"5511988887777"}',
      '{"error":"invalid recipient [redacted]","to":"[redacted]"}',
      "5511",
    ],
    ["Phone numbers", "ligue (11) 99999-0000 hoje", "ligue [redacted] hoje", "99999-0000"],
    ["Phone numbers", '{"phoneNumber": 5511999990000}', '{"phoneNumber": [redacted]}', "5511999990000"],
    [
      "API keys",
      "sent with mh_sbx_Q2hhbmdlTWVQbGVhc2VOb3RBUmVhbEtleQ and whsec_c2VjcmV0LXNpZ25pbmcta2V5",
      "sent with [redacted] and [redacted]",
      "Q2hhbmdl",
    ],
    [
      "Signatures",
      "Signature: t=1732520000,v1=5f2b9c0e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c",
      "Signature: [redacted]",
      "5f2b9c0e8d7a6b5c",
    ],
    [
      "Authorization credentials",
      "Authorization: Token abc123def456ghi789",
      "Authorization: Token [redacted]",
      "abc123def456ghi789",
    ],
    [
      "Authorization credentials",
      '{"authorization":"k-7f3a9c2e5b1d"}',
      '{"authorization":"[redacted]"}',
      "k-7f3a9c2e5b1d",
    ],
    [
      "Secrets in URLs",
      "GET /login?next=%2Fcb%3Fuser%3D7%26api_key%3Ds3cr3t-v4lue%26x%3D1 and ?api_key%3Dk-abcdef0123",
      "GET /login?next=%2Fcb%3Fuser%3D7%26api_key%3D[redacted]%26x%3D1 and ?api_key%3D[redacted]",
      "s3cr3t-v4lue",
    ],
  ])("%s: %s", (kind, input, expected, secret) => {
    const { out, report } = redactOnce(input);
    expect(out).toBe(expected);
    expect(out).not.toContain(secret);
    expect(report.find((entry) => entry.kind === kind)?.count).toBeGreaterThan(0);
  });

  it("leaves ordinary text, ids and timestamps alone", () => {
    const text =
      'At 2026-11-25T09:12:00.000+01:00 message 0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d failed: {"error":"database connection lost","count":1234567}';
    expect(redactOnce(text)).toEqual({ out: text, report: [] });
  });

  it("leaves bare long numbers alone where no phone is named: epoch times, ids, status codes", () => {
    const text =
      '{"received_at":1732520000000,"order_id":12345678901234,"status":404,"from":"2026-11-25"} ' +
      "at 1732520000 retried 3 times, trace 4bf92f3577b34da6a3ce929d0e0e4736, HTTP 503 (503) Service Unavailable";
    expect(redactOnce(text)).toEqual({ out: text, report: [] });
  });

  it("leaves the Basic and Bearer schemes to their own kinds under Authorization", () => {
    const { out, report } = redactOnce(
      "Authorization: Bearer abcdefgh12 / Authorization: Basic dXNlcjpodW50ZXIy",
    );
    expect(out).toBe("Authorization: Bearer [redacted] / Authorization: Basic [redacted]");
    expect(report).toEqual([
      { kind: "Basic-auth credentials", count: 1 },
      { kind: "Bearer tokens", count: 1 },
    ]);
  });

  it("reports kinds and counts, never a value", () => {
    const redactor = createRedactor();
    redactor.redact("a@example.com b@example.com");
    redactor.redact("Bearer abcdefgh12");
    const report = redactor.report();
    expect(report).toEqual([
      { kind: "Bearer tokens", count: 1 },
      { kind: "Email addresses", count: 2 },
    ]);
    expect(JSON.stringify(report)).not.toMatch(/example|abcdefgh/);
  });

  it("masks the session's own key wherever it appears, even inside other text", () => {
    const key = "canary-key-7f3a9c2e5b1d4e6f8a0b";
    const { out, report } = redactOnce(`echo:${key}:${key}`, { literals: [key] });
    expect(out).toBe(`echo:${MASK}:${MASK}`);
    expect(report).toEqual([{ kind: "API keys", count: 2 }]);
  });

  it("masks secrets hidden in hostile markup too", () => {
    const { out } = redactOnce(
      '<img src="https://x.test/?token=abc123secret" onerror="alert(1)"> jane@corp.example',
    );
    expect(out).not.toContain("abc123secret");
    expect(out).not.toContain("jane@corp.example");
  });
});

describe("operator patterns (REDACT_PATTERNS)", () => {
  it("masks what they match and counts them as operator patterns", () => {
    const { out, report } = redactOnce("order ORD-123456 and ord-654321", { patterns: ["/ORD-\\d{6}/i"] });
    expect(out).toBe(`order ${MASK} and ${MASK}`);
    expect(report).toEqual([{ kind: "Operator patterns", count: 2 }]);
  });

  it.each([
    ["(unclosed", /REDACT_PATTERNS entry 1 \(\(unclosed\) is not a valid regular expression/],
    ["a*", /REDACT_PATTERNS entry 1 \(a\*\) matches empty text/],
    ["/x/g", /has flags "g"/],
    ["", /is empty/],
  ])("refuses %j, naming it", (pattern, message) => {
    expect(() => createRedactor({ patterns: [pattern] })).toThrow(RedactionError);
    expect(() => createRedactor({ patterns: [pattern] })).toThrow(message);
  });

  it("names the entry that fails among several", () => {
    expect(() => compilePattern("[z-a]", "REDACT_PATTERNS entry 3")).toThrow(/REDACT_PATTERNS entry 3/);
    expect(() => createRedactor({ patterns: ["ok", "[z-a]"] })).toThrow(/entry 2 \(\[z-a\]\)/);
  });

  it("fails closed when a pattern runs over its time budget: nothing is returned", () => {
    let clock = 0;
    const redactor = createRedactor({
      patterns: ["x"],
      // Every look at the clock costs a third of the budget: the third match is over it.
      now: () => (clock += PATTERN_BUDGET_MS / 3),
    });
    expect(() => redactor.redact("x x x x x x")).toThrow(
      /REDACT_PATTERNS entry 1 \(x\) failed while masking/,
    );
  });

  it("fails closed when the budget is spent across several texts", () => {
    let clock = 0;
    const redactor = createRedactor({ patterns: ["x"], now: () => (clock += PATTERN_BUDGET_MS * 0.6) });
    redactor.redact("no match");
    expect(() => redactor.redact("still no match")).toThrow(/took longer than/);
  });
});

describe("large input", () => {
  it("redacts a body of several megabytes, keeping its length but for the masks", () => {
    const body = `${"lorem ipsum ".repeat(400_000)}token=abcdef123456 ${"z".repeat(100_000)}`;
    const { out, report } = redactOnce(body);
    expect(out).not.toContain("abcdef123456");
    expect(report).toEqual([{ kind: "API keys", count: 1 }]);
    expect(out.length).toBe(body.length - "abcdef123456".length + MASK.length);
  });
});
