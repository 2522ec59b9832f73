/**
 * The bundle as one self-contained HTML page that prints well: every text escaped, no scripts,
 * no external resources, styles only in `style` attributes (so the page looks the same in the
 * console's sandboxed preview, whose policy refuses style elements), and a policy of its own
 * that refuses anything but those styles.
 */
import { rawBodies, type SupportBundle } from "@/lib/domain/bundle/bundle";
import type { Comparison } from "@/lib/domain/bundle/compare";
import { countOf } from "@/lib/domain/format-count";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const S = {
  body: "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#111;background:#fff;max-width:58rem;margin:2rem auto;padding:0 1rem;line-height:1.45",
  h1: "font-size:1.4rem;margin:0 0 0.5rem;word-break:break-all",
  h2: "font-size:1.1rem;margin:1.6rem 0 0.5rem;border-bottom:1px solid #ccc;padding-bottom:0.2rem;break-after:avoid",
  h3: "font-size:1rem;margin:1rem 0 0.3rem;break-after:avoid",
  pre:
    "font-family:ui-monospace,Menlo,Consolas,monospace;font-size:0.8rem;background:#f5f5f5;" +
    "border:1px solid #ddd;padding:0.5rem;white-space:pre-wrap;word-break:break-all;break-inside:avoid",
  table: "border-collapse:collapse;width:100%;font-size:0.9rem;break-inside:avoid",
  cell: "border:1px solid #ccc;padding:0.25rem 0.5rem;text-align:left;vertical-align:top",
  code: "font-family:ui-monospace,Menlo,Consolas,monospace;font-size:0.85em;word-break:break-all",
  summary: "font-size:1.05rem;font-weight:600;margin:0.5rem 0",
  muted: "color:#555",
  added: "background:#e6f4ea",
  removed: "background:#fce8e6",
  volatile: "color:#777",
} as const;

/** A table row of cells already in HTML; `style` for the row. */
const tr = (cells: string[], style = "") =>
  `<tr style="${style}">${cells.map((cell) => `<td style="${S.cell}">${cell}</td>`).join("")}</tr>`;

/** A table with a header row of plain texts and body rows already in HTML. */
const table = (headers: string[], rows: string[]) =>
  `<table style="${S.table}"><thead><tr>${headers.map((h) => `<th style="${S.cell}">${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
  `<tbody>${rows.join("")}</tbody></table>`;

const code = (text: string) => `<code style="${S.code}">${escapeHtml(text)}</code>`;
const pre = (text: string) => `<pre style="${S.pre}">${escapeHtml(text)}</pre>`;

function changeStyle(kind: string, volatile: boolean): string {
  if (volatile) return S.volatile;
  return kind === "added" ? S.added : kind === "removed" ? S.removed : "";
}

function diffHtml(comparison: Comparison): string {
  const diff = comparison.diff!;
  switch (diff.kind) {
    case "identical":
      return "<p>The response bodies are identical.</p>";
    case "too_large":
      return [
        `<p>${escapeHtml(diff.message)}</p>`,
        ...rawBodies(comparison).flatMap((raw) => [
          `<p><strong>${escapeHtml(raw.title)}</strong>${escapeHtml(raw.note)}:</p>`,
          pre(raw.body),
        ]),
      ].join("");
    case "json": {
      const rows = diff.changes.map((change) => {
        const value = (text: string | undefined) => (text === undefined ? "—" : code(text));
        const path = `${code(change.path)}${change.volatile ? " (id or time)" : ""}`;
        return tr(
          [path, value(change.before), value(change.after)],
          changeStyle(change.kind, change.volatile),
        );
      });
      return table(["Field", "Last success", "Failure"], rows);
    }
    case "lines": {
      const lines = diff.lines.map((line) => {
        const mark = line.op === "added" ? "+" : line.op === "removed" ? "-" : " ";
        const style = changeStyle(line.op, line.volatile);
        return `<span style="${style}">${escapeHtml(`${mark} ${line.text}`)}</span>`;
      });
      return `<pre style="${S.pre}">${lines.join("\n")}</pre>`;
    }
  }
}

export function renderHtml(bundle: SupportBundle): string {
  const parts: string[] = [];
  const h2 = (text: string) => parts.push(`<h2 style="${S.h2}">${escapeHtml(text)}</h2>`);
  const row = (label: string, value: string) =>
    `<tr><th style="${S.cell}" scope="row">${escapeHtml(label)}</th><td style="${S.cell}">${value}</td></tr>`;

  const issueTitle = bundle.issue ? `, ${escapeHtml(bundle.issue.title)}` : "";
  parts.push(`<h1 style="${S.h1}">Support bundle: ${escapeHtml(bundle.webhook.endpoint)}${issueTitle}</h1>`);
  parts.push(
    `<table style="${S.table}"><tbody>`,
    row(
      "Webhook",
      `${code(bundle.webhook.id)} (${escapeHtml(bundle.webhook.eventType)}, ` +
        `${bundle.webhook.active ? "active" : "inactive"}, ${countOf(bundle.webhook.numberOfErrors, "error")} counted by the hub)`,
    ),
    row("Window", escapeHtml(bundle.window.text)),
    row(
      "Attempts",
      `${bundle.counts.attempts}: ${bundle.counts.succeeded} succeeded, ${bundle.counts.failed} failed` +
        (bundle.counts.otherFailed > 0 ? `, ${bundle.counts.otherFailed} failed for other causes` : ""),
    ),
    ...(bundle.partial ? [row("Note", escapeHtml(bundle.partial))] : []),
    "</tbody></table>",
  );

  if (bundle.issue) {
    h2("Failure issue");
    parts.push(
      `<p>${escapeHtml(bundle.issue.text)}</p>`,
      `<p>What its failures' responses share: ${code(bundle.issue.signatureText || "(empty response body)")}</p>`,
    );
  }

  if (bundle.comparison) {
    const { comparison } = bundle;
    h2("What changed since it last worked");
    parts.push(`<p style="${S.summary}">${escapeHtml(comparison.summary)}</p>`);
    if (comparison.lastSuccess && comparison.diff) {
      parts.push(
        `<p>Time between them: ${escapeHtml(comparison.gapText ?? "")}; status ${comparison.lastSuccess.statusCode} then ${comparison.failed.statusCode}.</p>`,
        diffHtml(comparison),
      );
    }
    if (bundle.changes) {
      parts.push(`<p>The webhook's own changes: ${escapeHtml(bundle.changes.sentence)}</p>`);
      if (bundle.changes.lines.length > 0)
        parts.push(`<ul>${bundle.changes.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`);
    }
  }

  if (bundle.streak) {
    h2("Failing streak");
    parts.push(
      `<p>${escapeHtml(bundle.streak.text)}</p>`,
      `<p style="${S.muted}">Started ${escapeHtml(bundle.streak.startedText)}; latest failure ${escapeHtml(bundle.streak.lastText)}.</p>`,
    );
  }

  if (bundle.codes.length > 0) {
    h2("Status codes and likely causes");
    const rows = bundle.codes.map((c) =>
      tr([
        escapeHtml(c.title),
        String(c.count),
        escapeHtml(`${c.firstText} to ${c.lastText}`),
        escapeHtml(c.cause),
      ]),
    );
    parts.push(table(["Status", "Failures", "Seen", "Likely cause"], rows));
  }

  if (bundle.fixes.length > 0) {
    h2("What to fix");
    parts.push(`<ol>${bundle.fixes.map((fix) => `<li>${escapeHtml(fix)}</li>`).join("")}</ol>`);
  }

  if (bundle.samples.length > 0) {
    h2("Sample responses");
    for (const sample of bundle.samples) {
      const status = sample.statusCode === 0 ? "No connection" : `HTTP ${sample.statusCode}`;
      parts.push(
        `<h3 style="${S.h3}">${escapeHtml(`${status}, ${sample.sentAtText}`)}</h3>`,
        `<p style="${S.muted}">Log ${code(sample.logId)}${sample.messageId ? `, message ${code(sample.messageId)}` : ""}</p>`,
        pre(sample.body),
        sample.truncated
          ? `<p style="${S.muted}">First ${sample.body.length} of ${sample.bodyLength} characters.</p>`
          : "",
      );
    }
  }

  if (bundle.messageIds.total > 0) {
    h2("Message ids of the failures");
    const more = bundle.messageIds.total - bundle.messageIds.ids.length;
    parts.push(pre(bundle.messageIds.ids.join("\n")), more > 0 ? `<p>and ${more} more.</p>` : "");
  }

  h2("Masked before sharing");
  parts.push(
    bundle.masked.length === 0
      ? "<p>Nothing needed masking.</p>"
      : `<ul>${bundle.masked.map((m) => `<li>${escapeHtml(m.kind)}: ${m.count}</li>`).join("")}</ul>`,
    `<p style="${S.muted}">Generated ${escapeHtml(bundle.generatedText)} by the Messaging Hub Webhook Console.</p>`,
  );

  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(bundle.title)}</title>`,
    "</head>",
    `<body style="${S.body}">`,
    ...parts,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
