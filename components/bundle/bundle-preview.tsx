import { countOf } from "@/lib/domain/format-count";
import type { SupportBundle } from "@/lib/domain/bundle/bundle";
import { BundleDownloads, type BundleFile } from "@/components/bundle/bundle-downloads";

/**
 * Exactly what will be shared: the masked list, the Markdown as text, the HTML page in a sandboxed
 * frame (no scripts, no same-origin access), and the downloads of those very texts.
 */
export function BundlePreview({
  bundle,
  files,
}: {
  bundle: SupportBundle;
  files: { md: BundleFile; html: BundleFile; json: BundleFile };
}) {
  return (
    <div className="space-y-5">
      <section className="card space-y-2 p-4" aria-labelledby="bundle-summary">
        <h2 id="bundle-summary" className="text-base font-semibold">
          Summary
        </h2>
        {bundle.issue ? <p className="text-sm">{bundle.issue.text}</p> : null}
        <p>{bundle.comparison?.summary ?? "No failure in this window."}</p>
        {bundle.changes ? <p className="text-sm">{bundle.changes.sentence}</p> : null}
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {bundle.window.text}: {countOf(bundle.counts.attempts, "attempt")}, {bundle.counts.failed} failed
          {bundle.counts.otherFailed > 0 ? `, ${bundle.counts.otherFailed} failed for other causes` : ""}.
        </p>
        {bundle.partial ? <p className="text-sm">{bundle.partial}</p> : null}
      </section>
      <section className="card space-y-2 p-4" aria-labelledby="bundle-masked">
        <h2 id="bundle-masked" className="text-base font-semibold">
          Masked before sharing
        </h2>
        {bundle.masked.length === 0 ? (
          <p>Nothing needed masking.</p>
        ) : (
          <ul aria-labelledby="bundle-masked" className="list-disc pl-5">
            {bundle.masked.map((masked) => (
              <li key={masked.kind}>
                {masked.kind}: {masked.count}
              </li>
            ))}
          </ul>
        )}
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Kinds and counts only; the masked values are not kept anywhere.
        </p>
      </section>
      <section className="space-y-2" aria-labelledby="bundle-downloads">
        <h2 id="bundle-downloads" className="text-base font-semibold">
          Download
        </h2>
        <BundleDownloads files={[files.md, files.html, files.json]} />
      </section>
      <section className="space-y-2" aria-labelledby="bundle-md">
        <h2 id="bundle-md" className="text-base font-semibold">
          Markdown
        </h2>
        <pre
          aria-labelledby="bundle-md"
          tabIndex={0}
          className="card max-h-[32rem] overflow-auto p-3 font-mono text-xs whitespace-pre-wrap"
        >
          {files.md.text}
        </pre>
      </section>
      <section className="space-y-2" aria-labelledby="bundle-html">
        <h2 id="bundle-html" className="text-base font-semibold">
          HTML page
        </h2>
        <iframe
          title="HTML bundle preview"
          sandbox=""
          srcDoc={files.html.text}
          className="h-[40rem] w-full rounded-md border border-zinc-300 bg-white dark:border-zinc-700"
        />
      </section>
    </div>
  );
}
