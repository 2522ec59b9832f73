/** One renderer per bundle format, and the content type each is served with. */
import type { BundleFormat, SupportBundle } from "@/lib/domain/bundle/bundle";
import { renderHtml } from "@/lib/domain/bundle/render-html";
import { renderMarkdown } from "@/lib/domain/bundle/render-markdown";

export const BUNDLE_CONTENT_TYPES: Record<BundleFormat, string> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  json: "application/json; charset=utf-8",
};

export function renderBundle(bundle: SupportBundle, format: BundleFormat): string {
  if (format === "md") return renderMarkdown(bundle);
  if (format === "html") return renderHtml(bundle);
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
