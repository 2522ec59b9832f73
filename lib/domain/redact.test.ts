import { describe, expect, it } from "vitest";
import { MASK, PATTERN_BUDGET_MS, RedactionError, compilePattern, createRedactor } from "@/lib/domain/redact";

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
    ["Named secrets", '{"apiKey": "live_9f8e7d6c5b4a"}', '{"apiKey": "[redacted]"}', "live_9f8e7d6c5b4a"],
    [
      "API keys",
      "stripe said sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "stripe said [redacted]",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    ],
    ["Named secrets", "password=hunter22; user=bob", "password=[redacted]; user=bob", "hunter22"],
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
    expect(report).toEqual([{ kind: "Named secrets", count: 1 }]);
    expect(out.length).toBe(body.length - "abcdef123456".length + MASK.length);
  });
});

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

/** [shape, text, the secret that must not survive]. */
const SECRET_SHAPES: Array<[string, string, string]> = [
  ["JSON, snake_case", '{"db_password":"hunter2!x","user":"bob"}', "hunter2!x"],
  ["JSON, camelCase, spaces in the value", '{"dbPassword": "s3cr3t value, really"}', "s3cr3t"],
  ["JSON, upper snake", '{"AUTH_TOKEN":"tok_8c1e5a3f"}', "tok_8c1e5a3f"],
  ["JSON, three words", '{"stripe_secret_key":"sec_9a8b7c6d5e"}', "sec_9a8b7c6d5e"],
  ["JSON, aws_secret", '{"aws_secret":"wJalrXUtnFEMI/K7MDENG/bPxRfiCY"}', "wJalrXUtnFEMI"],
  ["JSON, session_id", '{"session_id":"8f14e45fceea167a5a36dedd4bea2543"}', "8f14e45fceea"],
  ["JSON, a number", '{"pin": 48213}', "48213"],
  ["JSON inside a JSON string", '{"body":"{\\"refresh_token\\":\\"rt-77aa99bb\\"}"}', "rt-77aa99bb"],
  ["JSON, kebab-case", '{"x-auth-token": "xat-5512ab"}', "xat-5512ab"],
  ["JSON, client_secret", '{"client_secret":"cs_4f7d2c9a"}', "cs_4f7d2c9a"],
  ["JSON, a private key", '{"private_key":"-----BEGIN PRIVATE KEY----- MIIEvQIBADAN"}', "MIIEvQIBADAN"],
  ["form-encoded", "username=bob&password=hunter2&remember=1", "hunter2"],
  [
    "form-encoded, refresh_token",
    "grant_type=refresh&refresh_token=rt_abc123xyz&client_id=web",
    "rt_abc123xyz",
  ],
  ["form-encoded, client_secret", "client_secret=cs-998877&scope=all", "cs-998877"],
  ["Cookie header", "Cookie: sid=31d4d96e407aad42; theme=dark", "31d4d96e407aad42"],
  ["Set-Cookie header", "Set-Cookie: session=9f8e7d6c5b4a; Path=/; HttpOnly; Secure", "9f8e7d6c5b4a"],
  ["cookie as a JSON field", '{"set-cookie": "remember_me=rm-2291; Max-Age=60"}', "rm-2291"],
  ["X-Api-Key header", "X-Api-Key: 7c9e1b2d4f6a8c0e", "7c9e1b2d4f6a8c0e"],
  ["X-Auth-Token header", "X-Auth-Token: abcd-efgh-ijkl", "abcd-efgh-ijkl"],
  ["Authorization: Bearer, a whole JWT", `Authorization: Bearer ${JWT}`, "SflKxwRJSMeKKF2QT4fw"],
  ["Authorization: Basic", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"],
  ["Proxy-Authorization", "Proxy-Authorization: Token abcdef123456", "abcdef123456"],
  ["query string, db_password", "GET /cb?db_password=pw-551&page=2", "pw-551"],
  ["query string, AUTH_TOKEN", "https://api.test/v1?AUTH_TOKEN=at-66ff&x=1", "at-66ff"],
  ["query string, sig", "https://api.test/hook?sig=0a1b2c3d4e5f", "0a1b2c3d4e5f"],
  [
    "query string, URL-encoded inside another",
    "/login?next=%2Fcb%3Fsession_id%3Dsid-4411%26x%3D1",
    "sid-4411",
  ],
  ["query string, password", "POST https://acme.test/hook?token=tk-1&password=pw-2", "pw-2"],
  ["XML", "<password>Tr0ub4dor&amp;3</password>", "Tr0ub4dor"],
  ["XML, PascalCase", "<ApiKey>ak-1234abcd</ApiKey>", "ak-1234abcd"],
  ["XML, namespaced", '<ns:SessionToken xmlns:ns="urn:x">st-00ff11</ns:SessionToken>', "st-00ff11"],
  ["YAML, unquoted words", "db_password: correct horse battery staple", "horse"],
  ["YAML, camelCase", "awsSecretAccessKey: wJalrXUtnFEMIK7MDENG", "wJalrXUtnFEMIK7MDENG"],
  ["YAML, quoted kebab", '  api-key: "ak_99xx88yy"', "ak_99xx88yy"],
  ["YAML, session-id", "session-id: 2b7c9e11", "2b7c9e11"],
  ["env line, single quotes", "export DATABASE_PASSWORD='p4ss w0rd'", "p4ss"],
  ["env line, bare", "STRIPE_SECRET_KEY=whatever123", "whatever123"],
  ["Ruby hash", ':api_key => "rb-7788aa"', "rb-7788aa"],
  ["HTML attribute", '<user password="hunter2x">', "hunter2x"],
  ["camelCase, unquoted", "accessToken=at.998877 next", "at.998877"],
  ["camelCase, quoted", 'sessionId: "a1b2c3d4"', "a1b2c3d4"],
  ["card, spaced (Visa)", "paid with 4111 1111 1111 1111.", "1111 1111"],
  ["card, dashed (Mastercard)", "card=5500-0000-0000-0004", "0000-0000"],
  ["card, bare (Amex)", '{"card":"378282246310005"}', "378282246310005"],
  ["card, Amex groups", "amex 3714 496353 98431 declined", "496353"],
  ["card, bare (Discover)", "6011111111111117", "6011111111111117"],
  ["IBAN, spaced", "pay to DE89 3704 0044 0532 0130 00 by Friday", "0532 0130"],
  ["IBAN, bare", "iban=GB82WEST12345698765432", "GB82WEST12345698765432"],
  ["IBAN, with letters inside", "FR14 2004 1010 0505 0001 3M02 606", "3M02"],
  ["a whole JWT, bare", `session ${JWT} expired`, "SflKxwRJSMeKKF2QT4fw"],
  ["the hub's own key", "echo mh_live_Q2hhbmdlTWVQbGVhc2U in the body", "Q2hhbmdlTWVQbGVhc2U"],
  ["Slack token", "xoxb-123456789012-abcdefghij", "abcdefghij"],
  ["URL userinfo", "postgres://admin:s3cr3t@db.internal:5432/app", "s3cr3t"],
];

describe("secret shapes", () => {
  it("covers at least 40 shapes", () => expect(SECRET_SHAPES.length).toBeGreaterThanOrEqual(40));

  it.each(SECRET_SHAPES)("%s: %s", (_shape, text, secret) => {
    const { out, report } = redactOnce(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(MASK);
    expect(report.length).toBeGreaterThan(0);
  });

  it("keeps the name, the quotes and what follows, so the text still reads", () => {
    expect(redactOnce('{"db_password":"a b","user":"bob"}').out).toBe(
      '{"db_password":"[redacted]","user":"bob"}',
    );
    expect(redactOnce("AUTH_TOKEN=x1y2 PORT=8080").out).toBe("AUTH_TOKEN=[redacted] PORT=8080");
    expect(redactOnce("<password>pw</password> <user>bob</user>").out).toBe(
      "<password>[redacted]</password> <user>bob</user>",
    );
    expect(redactOnce("Cookie: a=1; b=2\nAccept: */*").out).toBe("Cookie: [redacted]\nAccept: */*");
  });

  it("reports cards, IBANs and cookies by their own kinds", () => {
    const { report } = redactOnce("4111 1111 1111 1111 / DE89370400440532013000 / Cookie: sid=abc");
    expect(report).toEqual([
      { kind: "Card numbers", count: 1 },
      { kind: "Cookies", count: 1 },
      { kind: "IBANs", count: 1 },
    ]);
  });
});

/** Text that looks like a secret and is not: it must come out as it went in. */
const LOOK_ALIKES: Array<[string, string]> = [
  ["order ids", '{"order_id":12345678901234,"orderRef":"ORD-2026-000123"}'],
  ["a non-Luhn 16-digit number with a card's prefix", "Order #4111111111111112 shipped"],
  ["non-Luhn 16-digit numbers, spaced and bare", "ref 1234 5678 1234 5678 and 1234567812345678"],
  ["UUIDs", "message 0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d failed"],
  ["ISO timestamps", "at 2026-11-25T22:43:01.000+01:00 and 2026-11-25 22:43:01"],
  ["epoch numbers", '{"ts":1732520000,"ms":1732520000000,"us":1732520000000000}'],
  ["phone-ish short numbers", "room 555-0100, ext. 42, PO Box 1234"],
  ["words in prose", "The tokenizer failed; passwordless sign-in is on; the secretary called about tokens."],
  ["status codes", "HTTP 401 Unauthorized, status: 404, code=500"],
  ["fields about a secret, not the secret", '{"token_count": 5, "max_tokens": 100, "token_type": "bearer"}'],
  ["a key that is no secret", '{"key":"order.created","idempotency_key":"b7c9"}'],
  ["an IBAN whose check digits fail", "DE00 3704 0044 0532 0130 00"],
  ["a trace id", "trace 4bf92f3577b34da6a3ce929d0e0e4736"],
  ["flags named like secrets", "passwordless: true, password_reset: false, token: null"],
  ["versions, addresses, amounts", "v1.2.3 at 10.0.0.1:8080 charged 1234.56 for 3,000,000 requests"],
];

describe("look-alikes", () => {
  it("covers at least 10 of them", () => expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(10));

  it.each(LOOK_ALIKES)("%s stay: %s", (_what, text) => {
    expect(redactOnce(text)).toEqual({ out: text, report: [] });
  });
});

describe("URLs (endpoints)", () => {
  it.each([
    [
      "https://user:pass@hooks.acme.test/x?token=abc&password=def&shop=acme#access_token=zzz",
      "https://[redacted]@hooks.acme.test/x?token=[redacted]&password=[redacted]&shop=[redacted]#access_token=[redacted]",
    ],
    ["https://acme.test/hook?k7f3a9c2e5b1d", "https://acme.test/hook?[redacted]"],
    ["https://acme.test/hooks/orders", "https://acme.test/hooks/orders"],
    ["https://acme.test/hook?", "https://acme.test/hook?"],
  ])("%s", (url, expected) => {
    expect(createRedactor().redactUrl(url)).toBe(expected);
  });

  it("reports ordinary query values apart from named secrets", () => {
    const redactor = createRedactor();
    redactor.redactUrl("https://acme.test/hook?token=abc&shop=acme&region=eu");
    expect(redactor.report()).toEqual([
      { kind: "Secrets in URLs", count: 1 },
      { kind: "URL query values", count: 2 },
    ]);
  });
});
