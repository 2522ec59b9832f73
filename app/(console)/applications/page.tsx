import type { Metadata } from "next";
import { KeyHint, RejectedBadge } from "@/components/applications/application-switcher";
import { KeyForm } from "@/components/applications/key-form";
import { Notice } from "@/components/ui/notice";
import { APPLICATIONS_MAX } from "@/lib/domain/applications";
import { serverConfig } from "@/lib/server/config";
import { requireSignedInPage } from "@/lib/server/session/redirect";

export const metadata: Metadata = { title: "Applications" };

const DONE: Record<string, string> = {
  added: "The application was added: its key was checked with the Messaging Hub.",
  replaced: "The key was replaced: the Messaging Hub accepts it.",
  removed: "The application was removed from this session.",
  renamed: "The application was renamed.",
};

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * `/applications`: the session's applications (name, the last 4 characters of the key, current,
 * key rejected), with Open, Remove and Replace key, and the form that adds one. Only the key
 * forms need the page's script; the rest are plain forms.
 */
export default async function ApplicationsPage({ searchParams }: Props) {
  const data = await requireSignedInPage("/applications");
  const { done } = await searchParams;
  const doneText = typeof done === "string" ? DONE[done] : undefined;
  const full = data.applications.length >= APPLICATIONS_MAX;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Applications</h1>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          Each application is one API key of the Messaging Hub. Keys stay sealed in this browser&apos;s
          session cookie and never reach the page; links name an application by an id derived from its key.
        </p>
      </div>
      {doneText ? (
        <Notice tone="success" role="status">
          <p>{doneText}</p>
        </Notice>
      ) : null}

      <section aria-labelledby="applications-heading" className="card p-4">
        <h2 id="applications-heading" className="text-sm font-semibold">
          Your applications ({data.applications.length} of {APPLICATIONS_MAX})
        </h2>
        <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
          {data.applications.map((app) => (
            <li key={app.id} aria-label={app.name} className="space-y-2 py-3">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="min-w-0 font-medium break-words">{app.name}</span>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  key <KeyHint keyHint={app.keyHint} />
                </span>
                {app.id === data.current ? (
                  <span className="rounded-full bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-900 dark:bg-blue-900/60 dark:text-blue-100">
                    Current
                  </span>
                ) : null}
                {app.rejected ? <RejectedBadge /> : null}
              </div>
              {app.rejected ? (
                <p className="text-sm text-red-800 dark:text-red-300">
                  The Messaging Hub rejects this key: it was rotated or revoked. Replace it with the
                  application&apos;s current key; your other applications keep working.
                </p>
              ) : null}
              <div className="flex flex-wrap items-center gap-3 text-sm">
                {/* Makes it current: a full page load, so the header names it (see the console layout). */}
                <form method="post" action="/api/applications/current">
                  <input type="hidden" name="app" value={app.id} />
                  <button type="submit" className="btn btn-small">
                    Open webhooks<span className="sr-only"> of {app.name}</span>
                  </button>
                </form>
                {data.applications.length > 1 ? (
                  <form method="post" action="/api/applications/remove">
                    <input type="hidden" name="app" value={app.id} />
                    <button type="submit" className="btn btn-small">
                      Remove<span className="sr-only"> {app.name}</span>
                    </button>
                  </form>
                ) : null}
              </div>
              <details open={app.rejected} className="text-sm">
                <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">
                  Replace key<span className="sr-only"> of {app.name}</span>
                </summary>
                <div className="mt-2">
                  <KeyForm mode="replace" app={{ id: app.id, name: app.name }} />
                </div>
              </details>
              <details className="text-sm">
                <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">
                  Rename<span className="sr-only"> {app.name}</span>
                </summary>
                <div className="mt-2">
                  <KeyForm mode="rename" app={{ id: app.id, name: app.name }} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="add-application-heading" className="card space-y-3 p-4">
        <h2 id="add-application-heading" className="text-sm font-semibold">
          Add an application
        </h2>
        {full ? (
          <Notice tone="warning">
            <p>
              This session holds {APPLICATIONS_MAX} applications, the most it can. Remove one you no longer
              need to add another.
            </p>
          </Notice>
        ) : (
          <KeyForm mode="add" />
        )}
        {serverConfig().sandboxMode && !full ? (
          <form
            method="post"
            action="/api/applications/demo"
            className="border-t border-zinc-200 pt-3 dark:border-zinc-800"
          >
            <button type="submit" className="btn btn-secondary">
              Add the sandbox&apos;s demo applications
            </button>
          </form>
        ) : null}
      </section>
    </div>
  );
}
