import { countOf } from "@/lib/domain/format-count";
import {
  alertFacts,
  alertTitle,
  codeText,
  namedWebhooks,
  type AlertMessage,
} from "@/lib/domain/alerts/message";
import { escapeHtml } from "@/lib/domain/bundle/render-html";

/**
 * An alert as an email: a subject, a plain-text body and an HTML body saying the same. Every
 * text from outside is escaped in the HTML, and line breaks are taken out of the subject.
 */
export interface AlertEmail {
  subject: string;
  text: string;
  html: string;
}

export function renderEmail(message: AlertMessage): AlertEmail {
  const title = alertTitle(message);
  const link = message.links.webhook ?? message.links.console;
  const rows = alertFacts(message);
  const named = namedWebhooks(message);
  const text = [
    title,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...named.map((item) => `- ${item.webhook.name}: ${countOf(item.failures, "failure")} (${item.link})`),
    ...message.samples.flatMap((sample) => [
      "",
      `${codeText(sample.statusCode)} at ${sample.sentAt}:`,
      sample.body,
    ]),
    "",
    `Open in the console: ${link}`,
  ].join("\n");
  const html = [
    `<!DOCTYPE html><html><body style="font-family:sans-serif;max-width:40rem">`,
    `<h1 style="font-size:1.2rem">${escapeHtml(title)}</h1>`,
    `<table>`,
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    `</table>`,
    named.length > 0
      ? `<ul>${named
          .map(
            (item) =>
              `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.webhook.name)}</a>: ${countOf(item.failures, "failure")}</li>`,
          )
          .join("")}</ul>`
      : "",
    ...message.samples.map(
      (sample) =>
        `<p><strong>${escapeHtml(codeText(sample.statusCode))}</strong> at ${escapeHtml(sample.sentAt)}</p>` +
        `<pre style="white-space:pre-wrap">${escapeHtml(sample.body)}</pre>`,
    ),
    `<p><a href="${escapeHtml(link)}">Open in the console</a></p>`,
    `</body></html>`,
  ].join("\n");
  return { subject: title.replace(/[\r\n]+/g, " "), text, html };
}
