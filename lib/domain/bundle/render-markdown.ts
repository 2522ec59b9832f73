/**
 * The bundle as Markdown, for tickets and chat, readable as plain text too. Text from the hub can
 * never become markup: bodies sit in fenced blocks whose fence is longer than any backtick run in
 * them, and short texts (endpoint, the body's own words) in code spans built the same way. The
 * console's own sentences are escaped only where Markdown would read a character as markup.
 */
import { rawBodies, type SupportBundle } from "@/lib/domain/bundle/bundle";
import { comparisonSummary, type Comparison } from "@/lib/domain/bundle/compare";
import { countOf } from "@/lib/domain/format-count";

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** A fenced block that no content can close early. */
export function fenced(text: string, info = "text"): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/** An inline code span that no content can close early (newlines folded, as a span cannot hold them). */
export function codeSpan(text: string): string {
  const oneLine = text.replace(/\r?\n/g, " ");
  const fence = "`".repeat(longestBacktickRun(oneLine) + 1);
  const pad = oneLine.startsWith("`") || oneLine.endsWith("`") || oneLine.trim() === "" ? " " : "";
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/**
 * One line of plain text that Markdown shows as written, with a backslash only where a character
 * would start markup: emphasis, code, links, images, raw HTML, strike-through, an entity, and at
 * the start of a line a heading, quote or list. Dates, times, colons and dashes inside a sentence
 * stay as they are.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .replace(/[\\`*_[\]<~]|&(?=#?\w+;)/g, "\\$&")
    .replace(/^(\s*)([#>]|[-+=](?=\s|$))/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])(?=\s|$)/, "$1\\$2");
}

function diffText(comparison: Comparison): string {
  const diff = comparison.diff!;
  switch (diff.kind) {
    case "identical":
      return "The response bodies are identical.";
    case "too_large":
      return [
        escapeMarkdown(diff.message),
        ...rawBodies(comparison).flatMap((raw) => [`**${raw.title}**${raw.note}:`, fenced(raw.body)]),
      ].join("\n\n");
    case "json":
      return fenced(
        diff.changes
          .map((change) => {
            const mark = change.kind === "added" ? "+" : change.kind === "removed" ? "-" : "~";
            const values = [change.before, change.after].filter((v) => v !== undefined).join(" → ");
            return `${mark} ${change.path}: ${values}${change.volatile ? "  (id or time)" : ""}`;
          })
          .join("\n"),
        "diff",
      );
    case "lines":
      return fenced(
        diff.lines
          .map((line) => `${line.op === "added" ? "+" : line.op === "removed" ? "-" : " "} ${line.text}`)
          .join("\n"),
        "diff",
      );
  }
}

export function renderMarkdown(bundle: SupportBundle): string {
  const out: string[] = [];
  const now = Date.parse(bundle.generatedAt);
  const issueTitle = bundle.issue ? `, ${escapeMarkdown(bundle.issue.title)}` : "";
  out.push(`# Support bundle: ${codeSpan(bundle.webhook.endpoint)}${issueTitle}`, "");
  out.push(
    `- **Webhook:** ${codeSpan(bundle.webhook.id)} (${codeSpan(bundle.webhook.eventType)}, ` +
      `${bundle.webhook.active ? "active" : "inactive"}, ${countOf(bundle.webhook.numberOfErrors, "error")} counted by the hub)`,
    `- **Window:** ${escapeMarkdown(bundle.window.text)}`,
    `- **Attempts:** ${bundle.counts.attempts}, **succeeded:** ${bundle.counts.succeeded}, **failed:** ${bundle.counts.failed}` +
      (bundle.counts.otherFailed > 0 ? `, **failed for other causes:** ${bundle.counts.otherFailed}` : ""),
  );
  if (bundle.partial) out.push(`- **Note:** ${escapeMarkdown(bundle.partial)}`);
  out.push("");

  if (bundle.issue) {
    out.push(
      "## Failure issue",
      "",
      escapeMarkdown(bundle.issue.text),
      "",
      `What its failures' responses share: ${codeSpan(bundle.issue.signatureText || "(empty response body)")}`,
      "",
    );
  }

  if (bundle.comparison) {
    const { comparison } = bundle;
    out.push("## What changed since it last worked", "");
    // The summary's own words are the console's; the body's words go in a code span.
    const summary = comparisonSummary(comparison.failed, comparison.lastSuccess, {
      now,
      timeZone: bundle.timeZone,
      absolute: true,
      quote: codeSpan,
    });
    out.push(summary, "");
    if (comparison.lastSuccess && comparison.diff) {
      out.push(
        `Time between them: ${escapeMarkdown(comparison.gapText ?? "")}; status ${comparison.lastSuccess.statusCode} then ${comparison.failed.statusCode}.`,
        "",
        diffText(comparison),
        "",
      );
    }
    if (bundle.changes) {
      out.push(`**The webhook's own changes:** ${escapeMarkdown(bundle.changes.sentence)}`, "");
      for (const line of bundle.changes.lines) out.push(`- ${escapeMarkdown(line)}`);
      if (bundle.changes.lines.length > 0) out.push("");
    }
  }

  if (bundle.streak)
    out.push(
      "## Failing streak",
      "",
      escapeMarkdown(bundle.streak.text),
      "",
      `Started ${escapeMarkdown(bundle.streak.startedText)}; latest failure ${escapeMarkdown(bundle.streak.lastText)}.`,
      "",
    );

  if (bundle.codes.length > 0) {
    out.push("## Status codes and likely causes", "");
    for (const code of bundle.codes)
      out.push(
        `- **${escapeMarkdown(code.title)}** × ${code.count} ` +
          `(${escapeMarkdown(`${code.firstText} to ${code.lastText}`)}): ${escapeMarkdown(code.cause)}`,
      );
    out.push("");
  }

  if (bundle.fixes.length > 0) {
    out.push("## What to fix", "");
    for (const fix of bundle.fixes) out.push(`1. ${escapeMarkdown(fix)}`);
    out.push("");
  }

  if (bundle.samples.length > 0) {
    out.push("## Sample responses", "");
    for (const sample of bundle.samples) {
      out.push(
        `### ${sample.statusCode === 0 ? "No connection" : `HTTP ${sample.statusCode}`}, ${escapeMarkdown(sample.sentAtText)}`,
        "",
        `Log ${codeSpan(sample.logId)}${sample.messageId ? `, message ${codeSpan(sample.messageId)}` : ""}`,
        "",
        fenced(sample.body),
        "",
      );
      if (sample.truncated) out.push(`(first ${sample.body.length} of ${sample.bodyLength} characters)`, "");
    }
  }

  if (bundle.messageIds.total > 0) {
    out.push("## Message ids of the failures", "");
    out.push(fenced(bundle.messageIds.ids.join("\n")), "");
    const more = bundle.messageIds.total - bundle.messageIds.ids.length;
    if (more > 0) out.push(`and ${more} more.`, "");
  }

  out.push("## Masked before sharing", "");
  if (bundle.masked.length === 0) out.push("Nothing needed masking.");
  for (const masked of bundle.masked) out.push(`- ${escapeMarkdown(masked.kind)}: ${masked.count}`);
  out.push("", `Generated ${escapeMarkdown(bundle.generatedText)} by the Messaging Hub Webhook Console.`, "");
  return out.join("\n");
}
