import { describe, expect, it } from "vitest";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { IncidentCollector } from "@/lib/domain/bundle/incident";
import { SAMPLE_BODY_MAX_CHARS, buildBundle, type SupportBundle } from "@/lib/domain/bundle/bundle";
import { bundleRequestOf, parseBundleRequest } from "@/lib/domain/bundle/bundle-request";
import { changesBetween, NOT_WATCHED } from "@/lib/domain/bundle/webhook-changes";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { RedactionError } from "@/lib/domain/redact";
import { marked } from "marked";
import { codeSpan, escapeMarkdown, fenced, renderMarkdown } from "@/lib/domain/bundle/render-markdown";
import { escapeHtml, renderHtml } from "@/lib/domain/bundle/render-html";
import { renderBundle } from "@/lib/domain/bundle/render";

const NOW = Date.parse("2026-11-25T10:00:00Z");
const MIN = 60_000;
const WEBHOOK_ID = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

const webhook: Webhook = {
  id: WEBHOOK_ID,
  endpoint: "https://ops:hunter2@customer.test/hook?token=abc123",
  eventType: "Message",
  active: true,
  numberOfErrors: 12,
};

function log(n: number, minutesAgo: number, statusCode: number, responseBody: string): WebhookLog {
  const at = new Date(NOW - minutesAgo * MIN).toISOString();
  return {
    id: id(n),
    webhookId: WEBHOOK_ID,
    statusCode,
    responseBody,
    status: statusCode >= 200 && statusCode < 300 ? "Success" : "Failed",
    sendAt: at,
    createdDate: at,
    messageId: id(n, "2"),
    webhook: { id: WEBHOOK_ID, endpoint: webhook.endpoint, eventType: "Message" },
  };
}

/** Feeds logs newest first until the collector has enough; returns how many it took. */
function collect(
  logs: WebhookLog[],
  window = { from: NOW - 60 * MIN, to: NOW },
  focus?: (log: WebhookLog) => boolean,
) {
  const collector = new IncidentCollector(window, focus);
  let taken = 0;
  for (const entry of logs) {
    taken++;
    if (!collector.add(entry)) break;
  }
  return { incident: collector.result(), taken };
}

describe("IncidentCollector", () => {
  it("counts the window, finds the streak's true start before it, and stops at the success", () => {
    const logs = [
      log(1, 5, 500, '{"error":"database connection lost"}'),
      log(2, 20, 500, '{"error":"database connection lost"}'),
      log(3, 50, 404, "Not Found"),
      log(4, 70, 500, "older, outside the window"),
      log(5, 90, 200, '{"ok":true}'),
      log(6, 100, 500, "never read"),
    ];
    const { incident, taken } = collect(logs);
    expect(taken).toBe(5);
    expect(incident).toMatchObject({ attempts: 3, succeeded: 0, failed: 3 });
    expect(incident.codes.map((c) => [c.statusCode, c.count])).toEqual([
      [500, 2],
      [404, 1],
    ]);
    expect(incident.streak).toMatchObject({ length: 4, recovered: false });
    expect(incident.streak!.start.id).toBe(id(4));
    expect(incident.lastSuccess!.id).toBe(id(5));
    expect(incident.samples.map((s) => s.id)).toEqual([id(1), id(3)]);
    expect(incident.messageIds).toEqual({ ids: [id(1, "2"), id(2, "2"), id(3, "2")], total: 3 });
  });

  it("skips logs newer than the window and notes a recovery inside it", () => {
    const { incident } = collect(
      [
        log(1, 1, 500, "after the window"),
        log(2, 10, 200, "ok"),
        log(3, 20, 500, "boom"),
        log(4, 30, 200, "ok"),
      ],
      { from: NOW - 60 * MIN, to: NOW - 5 * MIN },
    );
    expect(incident.attempts).toBe(3);
    expect(incident.newestFailure!.id).toBe(id(3));
    expect(incident.streak).toMatchObject({ length: 1, recovered: true });
    expect(incident.lastSuccess!.id).toBe(id(4));
  });

  it("with a focus (a failure issue), counts, samples and compares only its failures; the others still make the streak", () => {
    const logs = [
      log(1, 5, 502, "<html>Bad Gateway</html>"),
      log(2, 10, 500, '{"error":"database connection lost"}'),
      log(3, 20, 502, "<html>Bad Gateway</html>"),
      log(4, 30, 500, '{"error":"database connection lost"}'),
      log(5, 90, 200, '{"ok":true}'),
    ];
    const { incident } = collect(logs, undefined, (entry) => entry.statusCode === 500);
    expect(incident).toMatchObject({ attempts: 4, succeeded: 0, failed: 2, otherFailed: 2 });
    expect(incident.codes.map((c) => [c.statusCode, c.count])).toEqual([[500, 2]]);
    expect(incident.newestFailure!.id).toBe(id(2));
    expect(incident.samples.map((s) => s.id)).toEqual([id(2)]);
    expect(incident.messageIds).toEqual({ ids: [id(2, "2"), id(4, "2")], total: 2 });
    expect(incident.streak).toMatchObject({ length: 3, recovered: false });
    expect(incident.lastSuccess!.id).toBe(id(5));
  });

  it("has no streak or comparison when nothing failed", () => {
    const { incident } = collect([log(1, 5, 200, "ok")]);
    expect(incident.streak).toBeNull();
    expect(incident.newestFailure).toBeNull();
  });
});

function bundleOf(logs: WebhookLog[], options: { patterns?: string[]; partial?: string | null } = {}) {
  return buildBundle({
    webhook,
    incident: collect(logs).incident,
    timeZone: "Europe/Berlin",
    now: NOW,
    partial: options.partial ?? null,
    redaction: { patterns: options.patterns, literals: ["canary-key-7f3a9c2e5b1d4e6f8a0b"] },
  });
}

describe("buildBundle", () => {
  const logs = [
    log(1, 5, 500, '{"error":"database connection lost","contact":"dba@customer.test"}'),
    log(2, 30, 401, "Authorization: Bearer zzzzzzzzzzzz rejected"),
    log(3, 70, 200, '{"ok":true}'),
  ];

  it("holds window, counts, codes with causes, streak, comparison and what to fix, in the zone asked", () => {
    const bundle = bundleOf(logs);
    expect(bundle.window.text).toBe(
      "2026-11-25 10:00:00 (Europe/Berlin) to 2026-11-25 11:00:00 (Europe/Berlin)",
    );
    expect(bundle.counts).toEqual({ attempts: 2, succeeded: 0, failed: 2, otherFailed: 0 });
    expect(bundle.issue).toBeNull();
    expect(bundle.codes.map((c) => [c.statusCode, c.count, c.fromSpec])).toEqual([
      [401, 1, true],
      [500, 1, true],
    ]);
    expect(bundle.streak).toMatchObject({ length: 2, atLeast: false, recovered: false });
    expect(bundle.streak!.startedText).toBe("2026-11-25 10:30:00 (Europe/Berlin)");
    expect(bundle.comparison!.summary).toBe(
      "Worked until 2026-11-25 09:50:00 (Europe/Berlin) with 200; this delivery then failed: 500 with 'database connection lost'.",
    );
    expect(bundle.fixes[0]).toMatch(/^HTTP 401 Unauthorized: /);
  });

  it("redacts every text from the hub and lists what it masked", () => {
    const bundle = bundleOf(logs);
    const json = JSON.stringify(bundle);
    for (const secret of ["hunter2", "abc123", "dba@customer.test", "zzzzzzzzzzzz"])
      expect(json).not.toContain(secret);
    expect(bundle.webhook.endpoint).toBe("https://[redacted]@customer.test/hook?token=[redacted]");
    expect(bundle.masked).toEqual([
      { kind: "Bearer tokens", count: 1 },
      { kind: "Email addresses", count: 1 },
      { kind: "Secrets in URLs", count: 1 },
      { kind: "URL credentials", count: 1 },
    ]);
  });

  it("produces nothing when an operator pattern fails", () => {
    expect(() => bundleOf(logs, { patterns: ["(broken"] })).toThrow(RedactionError);
  });

  it("says 'at least' when the reading stopped before the streak's start", () => {
    const bundle = bundleOf([log(1, 5, 500, "x"), log(2, 10, 500, "x")], { partial: "cap" });
    expect(bundle.streak!.text).toMatch(/^At least 2 failed attempts in a row from /);
    expect(bundle.comparison!.summary).toMatch(/^No success in the history; 500 with 'x'/);
  });

  it("cuts huge sample bodies after redacting them, and says how long they were", () => {
    const huge = `${"a".repeat(SAMPLE_BODY_MAX_CHARS - 5)}token=abcdefghij${"b".repeat(50_000)}`;
    const bundle = bundleOf([log(1, 5, 500, huge), log(2, 70, 200, "ok")]);
    const sample = bundle.samples[0]!;
    expect(sample.truncated).toBe(true);
    expect(sample.body).toHaveLength(SAMPLE_BODY_MAX_CHARS);
    expect(sample.body).not.toContain("abcdefghij");
    expect(bundle.comparison!.diff?.kind).toBe("lines");
  });
});

describe("a comparison too large to diff", () => {
  it("carries both raw bodies, each cut like a sample and saying how long it was, in every format", () => {
    const failure = `{"error":"${"f".repeat(70_000)}"}`;
    const success = `{"ok":true,"echo":"${"s".repeat(66_000)}"}`;
    const bundle = bundleOf([log(1, 5, 500, failure), log(2, 70, 200, success)]);
    const comparison = bundle.comparison!;
    expect(comparison.diff?.kind).toBe("too_large");
    expect(comparison.failed).toMatchObject({ bodyLength: failure.length });
    expect(comparison.failed.responseBody).toBe(failure.slice(0, SAMPLE_BODY_MAX_CHARS));
    expect(comparison.lastSuccess).toMatchObject({ bodyLength: success.length });
    expect(comparison.lastSuccess!.responseBody).toBe(success.slice(0, SAMPLE_BODY_MAX_CHARS));

    const md = renderMarkdown(bundle);
    expect(md).toContain(
      `**Last success** (first ${SAMPLE_BODY_MAX_CHARS} of ${success.length} characters):`,
    );
    expect(md).toContain(
      `**This failure** (first ${SAMPLE_BODY_MAX_CHARS} of ${failure.length} characters):`,
    );
    expect(md).toContain(fenced(success.slice(0, SAMPLE_BODY_MAX_CHARS)));
    const html = renderHtml(bundle);
    expect(html).toContain(
      `<strong>Last success</strong> (first ${SAMPLE_BODY_MAX_CHARS} of ${success.length} characters):`,
    );
    expect(html).toContain(escapeHtml(failure.slice(0, SAMPLE_BODY_MAX_CHARS)));
  });
});

describe("a failure issue's bundle", () => {
  const hostileText = "[x](https://evil.test) <img src=x> dba@customer.test";
  const issue: FailureIssue = {
    id: "5a2d0f9b-3e5d-4f0a-8b6c-7d8e9f0a1b2c",
    webhookId: WEBHOOK_ID,
    appId: "app",
    webhookName: "Acme",
    endpoint: webhook.endpoint,
    statusCode: 500,
    signature: "00000000000001",
    signatureText: hostileText,
    state: "open",
    failures: 7,
    firstFailure: { at: new Date(NOW - 40 * MIN).toISOString(), logId: id(4) },
    lastFailure: { at: new Date(NOW - 5 * MIN).toISOString(), logId: id(1) },
    samples: [],
    resolved: null,
    reopenedAt: null,
    lastChange: null,
    resolveAfter: 3,
  };
  const logs = [
    log(1, 5, 500, '{"error":"database connection lost"}'),
    log(2, 10, 502, "Bad Gateway"),
    log(3, 70, 200, '{"ok":true}'),
  ];

  function issueBundle(changes = NOT_WATCHED) {
    return buildBundle({
      webhook,
      incident: collect(logs, undefined, (entry) => entry.statusCode === 500).incident,
      timeZone: "UTC",
      now: NOW,
      partial: null,
      redaction: {},
      issue,
      changes,
    });
  }

  it("names the issue, redacts what its failures share, and counts other causes apart", () => {
    const bundle = issueBundle();
    expect(bundle.title).toBe(
      "Support bundle: https://[redacted]@customer.test/hook?token=[redacted], HTTP 500 Internal Server Error",
    );
    expect(bundle.issue).toMatchObject({ id: issue.id, failures: 7, state: "open" });
    expect(bundle.issue!.text).toBe(
      "One failure issue of this webhook: HTTP 500 Internal Server Error, 7 failures in all from " +
        "2026-11-25 09:20:00 (UTC) to 2026-11-25 09:55:00 (UTC) (open). Only its failures are counted, sampled and compared here.",
    );
    expect(bundle.issue!.signatureText).not.toContain("dba@customer.test");
    expect(bundle.counts).toEqual({ attempts: 2, succeeded: 0, failed: 1, otherFailed: 1 });
    expect(bundle.comparison!.failed.id).toBe(id(1));
    expect(bundle.changes).toEqual({
      sentence: "This webhook is not watched, so its changes between the two deliveries are not known.",
      lines: [],
    });
  });

  it("renders the issue and the webhook's changes, escaped, in Markdown and HTML", () => {
    const seen = new Date(NOW - 30 * MIN).toISOString();
    const bundle = issueBundle(
      changesBetween(
        [{ at: seen, kind: "active", active: false, numberOfErrors: 3, previous: true }],
        "2026-01-01T00:00:00Z",
      ),
    );
    const md = renderMarkdown(bundle);
    expect(md).toContain("## Failure issue");
    expect(md).toContain("**failed for other causes:** 1");
    expect(md).toContain("`[x](https://evil.test) <img src=x> [redacted]`");
    expect(md).toContain(
      "**The webhook's own changes:** The webhook changed 1 time between them: it was deactivated.",
    );
    expect(md).toContain("- 2026-11-25 09:30:00 (UTC): Deactivated (active true → false)");
    const html = renderHtml(bundle);
    expect(html).toContain("<h2");
    expect(html).toContain("&lt;img src=x&gt;");
    expect(html).not.toContain("<img");
    expect(html).toContain("<li>2026-11-25 09:30:00 (UTC): Deactivated (active true → false)</li>");
  });
});

const HOSTILE = [
  "</script><script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "[click me](https://evil.test) ![pixel](https://evil.test/p.png)",
  "```\n# injected heading\n```",
  "````` five backticks",
  "<!-- comment --> &amp; ' \"",
].join("\n");

describe("renderers with hostile bodies", () => {
  const bundle: SupportBundle = bundleOf([log(1, 5, 500, HOSTILE), log(2, 70, 200, "ok")]);

  it("Markdown keeps every body inside a fence no content can close", () => {
    const md = renderMarkdown(bundle);
    // The body's own five-backtick run is shorter than the fence around it.
    expect(md).toContain(`\`\`\`\`\`\`text\n${HOSTILE}\n\`\`\`\`\`\``);
    // Outside fences and code spans, no link, image or raw HTML survives.
    const outside = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "").replace(/(`+)[^`]*?\1/g, "");
    expect(outside).not.toMatch(/\]\(|<script|<img|^# injected/m);
  });

  it("fences and code spans outgrow the backtick runs inside them", () => {
    expect(fenced("a ``` b ````")).toBe("`````text\na ``` b ````\n`````");
    expect(codeSpan("x `y` z")).toBe("``x `y` z``");
    expect(codeSpan("`edge`")).toBe("`` `edge` ``");
  });

  it("the summary's quoted body words sit in a code span in Markdown", () => {
    const md = renderMarkdown(bundleOf([log(1, 5, 500, "[x](https://evil.test)"), log(2, 70, 200, "ok")]));
    expect(md).toContain("this delivery then failed: 500 with `[x](https://evil.test)`.");
  });

  it("HTML escapes every text, has no script and no external resource", () => {
    const html = renderHtml(bundle);
    const tags = new Set([...html.matchAll(/<\/?([a-z0-9!-]+)/gi)].map((m) => m[1]!.toLowerCase()));
    const allowed =
      "!doctype html head meta title body h1 h2 h3 p table thead tbody tr th td code pre span ol ul li";
    expect([...tags].filter((tag) => !allowed.split(" ").includes(tag))).toEqual([]);
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;!-- comment --&gt; &amp;amp; &#39; &quot;");
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    // Attributes are the page's own: no src, href or event handler outside escaped text.
    expect(html.replace(/>[^<]*</g, "><")).not.toMatch(/\s(?:src|href|on[a-z]+)=/i);
  });

  it("JSON is the bundle itself", () => {
    expect(JSON.parse(renderBundle(bundle, "json"))).toEqual(JSON.parse(JSON.stringify(bundle)));
  });
});

/** The Markdown with its fenced blocks and code spans taken out: the text Markdown reads as markup. */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "").replace(/(`+)[^`]*?\1/g, "");
}

describe("the bundle as the customer reads it, later", () => {
  // One failure five minutes before NOW, a success 70 minutes before: "today" to the console.
  const bundle = buildBundle({
    webhook: { ...webhook, numberOfErrors: 1 },
    incident: collect([log(1, 5, 500, '{"error":"database connection lost"}'), log(2, 70, 200, "ok")])
      .incident,
    timeZone: "Europe/Berlin",
    now: NOW,
    partial: null,
    redaction: {},
  });
  const md = renderMarkdown(bundle);
  const html = renderHtml(bundle);
  const json = renderBundle(bundle, "json");

  it("dates every time absolutely, in the zone asked and naming it, never 'today' or 'yesterday'", () => {
    for (const text of [md, html, json]) expect(text).not.toMatch(/\b(?:today|yesterday|ago)\b/i);
    expect(md).toContain(
      "Worked until 2026-11-25 09:50:00 (Europe/Berlin) with 200; this delivery then failed: 500 with `database connection lost`.",
    );
    expect(md).toContain(
      "1 failed attempt in a row from 2026-11-25 10:55:00 (Europe/Berlin), over 0 s; still failing at the latest attempt.",
    );
    expect(md).toContain(
      "- **Window:** 2026-11-25 10:00:00 (Europe/Berlin) to 2026-11-25 11:00:00 (Europe/Berlin)",
    );
    expect(md).toContain(
      "Generated 2026-11-25 11:00:00 (Europe/Berlin) by the Messaging Hub Webhook Console.",
    );
    expect(html).toContain("Generated 2026-11-25 11:00:00 (Europe/Berlin) by");
  });

  it("writes a count of one in the singular", () => {
    for (const text of [md, html]) {
      expect(text).toContain("1 error counted by the hub");
      expect(text).toContain("1 failed attempt in a row");
      expect(text).not.toMatch(/\b1 (?:errors|failures|attempts|failed attempts)\b/);
    }
  });

  it("puts no backslash where Markdown needs none: dates, times, colons, dots, dashes, brackets", () => {
    expect(outsideCode(md)).not.toMatch(/\\[-:.()!#+'"&|{}/]/);
  });

  it.each([
    ["2026-11-25 10:00:00 (UTC): it worked.", "2026-11-25 10:00:00 (UTC): it worked."],
    [
      "a *b* _c_ `d` [e](f) ![g](h) <i> ~j~ &amp; \\",
      "a \\*b\\* \\_c\\_ \\`d\\` \\[e\\](f) !\\[g\\](h) \\<i> \\~j\\~ \\&amp; \\\\",
    ],
    ["# not a heading", "\\# not a heading"],
    ["> not a quote", "\\> not a quote"],
    ["- not a list", "\\- not a list"],
    ["12. not a list", "12\\. not a list"],
    ["3 - 2 = 1, 10:00 + 5 min", "3 - 2 = 1, 10:00 + 5 min"],
    ["two\nlines", "two lines"],
  ])("escapeMarkdown(%j) is %j", (text, expected) => {
    expect(escapeMarkdown(text)).toBe(expected);
  });

  it("leaves a hostile body, event type and issue text inert once the Markdown is rendered", () => {
    const hostile = buildBundle({
      webhook: { ...webhook, eventType: "<img src=x onerror=alert(1)> [x](https://evil.test)" },
      incident: collect([log(1, 5, 500, HOSTILE), log(2, 70, 200, HOSTILE)]).incident,
      timeZone: "UTC",
      now: NOW,
      partial: null,
      redaction: {},
    });
    const rendered = marked.parse(renderMarkdown(hostile), { async: false, gfm: true });
    const tags = new Set([...rendered.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase()));
    expect(
      [...tags].filter((tag) => !"h1 h2 h3 p ul ol li strong code pre".split(" ").includes(tag)),
    ).toEqual([]);
    expect(rendered.match(/<h1/g)).toHaveLength(1);
    expect(rendered).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(rendered).toContain("[click me](https://evil.test)");
  });
});

describe("parseBundleRequest", () => {
  const params = (values: Record<string, string>) => new URLSearchParams(values);

  it("defaults to the last 24 hours in UTC, or to a failure issue's span", () => {
    const asked = parseBundleRequest(params({}));
    expect(asked).toEqual({ ok: true, value: { from: null, to: null, tz: null, issue: null } });
    if (!asked.ok) throw new Error("parsed");
    expect(bundleRequestOf(asked.value, NOW)).toEqual({
      from: NOW - 86_400_000,
      to: NOW,
      timeZone: "UTC",
      issue: null,
    });
    const issue = "5A2D0F9B-3E5D-4F0A-8B6C-7D8E9F0A1B2C";
    const forIssue = parseBundleRequest(params({ issue, to: "2026-11-25T09:30:00Z" }));
    if (!forIssue.ok) throw new Error("parsed");
    expect(forIssue.value.issue).toBe(issue.toLowerCase());
    expect(bundleRequestOf(forIssue.value, NOW, { from: NOW - 50 * MIN, to: NOW - 5 * MIN })).toEqual({
      from: NOW - 50 * MIN,
      to: Date.parse("2026-11-25T09:30:00Z"),
      timeZone: "UTC",
      issue: issue.toLowerCase(),
    });
    expect(parseBundleRequest(params({ issue: "../../admin" }))).toMatchObject({
      ok: false,
      errors: { issue: [expect.stringMatching(/^Failure issue: enter a UUID/)] },
    });
  });

  it("names each bad field by its label", () => {
    const result = parseBundleRequest(params({ from: "yesterday", tz: "Mars/Olympus" }));
    expect(result).toEqual({
      ok: false,
      errors: {
        from: ["From: enter a date and time, e.g. 2025-01-31T02:00:00Z."],
        tz: ["Time zone: enter an IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC."],
      },
    });
    expect(parseBundleRequest(params({ from: "2026-11-25T10:00:00Z", to: "2026-11-25T09:00:00Z" }))).toEqual({
      ok: false,
      errors: { from: ["From: pick a time before To."] },
    });
  });
});
