/**
 * Caps are stated and refused, never cut: a field with a length cap says it in its hint (its
 * accessible description), and no input or textarea carries `maxLength`, which would silently
 * cut a long paste. The schemas refuse longer input with a message the form shows by the field.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { DestinationForm } from "@/components/alerts/destination-form";
import { FindAcrossBox } from "@/components/find/find-across-box";
import { IssueActions } from "@/components/issues/issue-actions";
import { MaintenanceSection } from "@/components/maintenance/maintenance-section";
import { WatchForm } from "@/components/watch/watch-form";

// Rendered outside the App Router: a form that refreshes the page after it acts gets a router that does nothing.
vi.mock("next/navigation", async (original) => ({
  ...(await original<typeof import("next/navigation")>()),
  useRouter: () => ({ refresh: () => {} }),
}));

const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

function render(element: ReactElement, prepare: (client: QueryClient) => void = () => {}): string {
  const client = new QueryClient();
  prepare(client);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, element));
}

/** The control a label (or an sr-only label) names: its opening tag and its description's text. */
function control(markup: string, label: string | RegExp): { tag: string; description: string } {
  const labels = [...markup.matchAll(/<label[^>]*for="([^"]+)"[^>]*>(.*?)<\/label>/g)];
  const found = labels.find(([, , text]) =>
    typeof label === "string" ? text === label : label.test(text ?? ""),
  );
  if (!found) throw new Error(`no label ${String(label)} in ${markup}`);
  const id = found[1]!;
  const tag = new RegExp(`<(?:input|textarea|select)[^>]*id="${id}"[^>]*>`).exec(markup)?.[0] ?? "";
  const ids = /aria-describedby="([^"]*)"/.exec(tag)?.[1]?.split(" ") ?? [];
  const description = ids
    .map((one) => new RegExp(`<p[^>]*id="${one}"[^>]*>(.*?)</p>`).exec(markup)?.[1] ?? "")
    .join(" ")
    .replace(/<[^>]+>/g, "");
  return { tag, description };
}

const issue = { id: "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e", state: "open" } as FailureIssue;

describe("each capped field states its cap in its hint, and does not cut", () => {
  it.each([
    ["Watch name", () => render(createElement(WatchForm, { webhookId: WEBHOOK })), "Up to 120 characters."],
    [
      "Your name",
      () => render(createElement(IssueActions, { issue, onChanged: () => {} })),
      "Up to 80 characters.",
    ],
    [
      "Note",
      () => render(createElement(IssueActions, { issue, onChanged: () => {} })),
      "Up to 1,000 characters.",
    ],
    ["Name", () => render(createElement(DestinationForm)), "Up to 80 characters."],
    ["Slack webhook URL", () => render(createElement(DestinationForm)), "Up to 2,048 characters."],
    ["Find in watched webhooks", () => render(createElement(FindAcrossBox)), "Up to 2,048 characters."],
    ["Note", () => render(createElement(MaintenanceSection, { webhookId: null })), "Up to 200 characters."],
  ] as const)("%s", (label, markup, cap) => {
    const field = control(markup(), label);
    expect(field.description).toContain(cap);
    expect(field.tag).not.toMatch(/maxlength/i);
  });
});

describe("no input or textarea carries maxLength", () => {
  it("in components/ and app/", () => {
    const sources = ["components", "app"].flatMap((root) =>
      readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((path) => path.endsWith(".tsx"))
        .map((path) => join(root, path)),
    );
    expect(sources.filter((path) => /\bmaxLength=/.test(readFileSync(path, "utf8")))).toEqual([]);
  });
});
