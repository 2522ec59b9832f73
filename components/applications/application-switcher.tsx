import type { ApplicationSummary } from "@/lib/domain/applications";

/** "…4f2a": the last characters of a key, or nothing for a key too short to hint. */
export function KeyHint({ keyHint }: { keyHint: string }) {
  return keyHint ? <span className="font-mono">…{keyHint}</span> : null;
}

export function RejectedBadge() {
  return (
    <span className="rounded-full bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/60 dark:text-red-100">
      Key rejected
    </span>
  );
}

/**
 * The header's application menu: the application this page shows (name and the last 4 characters
 * of its key), and one click to any other. A native <details> with one plain form per application,
 * posting to `POST /api/applications/current`, which answers 303 to that application's webhooks:
 * no script, so it costs the page's JavaScript nothing and works before hydration.
 */
export function ApplicationSwitcher({
  applications,
  shown,
}: {
  applications: ApplicationSummary[];
  shown: ApplicationSummary;
}) {
  return (
    <details className="group relative text-sm">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2 py-1 text-zinc-800 hover:bg-zinc-100 dark:text-zinc-100 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden">
        <span className="sr-only">Application: </span>
        <span className="max-w-[10rem] truncate font-medium">{shown.name}</span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          <KeyHint keyHint={shown.keyHint} />
        </span>
        {shown.rejected ? <RejectedBadge /> : null}
        <span aria-hidden="true" className="text-xs text-zinc-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="card absolute right-0 z-30 mt-1 w-72 max-w-[calc(100vw-2rem)] p-2 shadow-lg">
        <p className="px-2 pb-1 text-xs font-semibold text-zinc-600 dark:text-zinc-400">Switch application</p>
        <ul>
          {applications.map((app) => (
            <li key={app.id}>
              <form method="post" action="/api/applications/current">
                <input type="hidden" name="app" value={app.id} />
                <button
                  type="submit"
                  aria-current={app.id === shown.id ? "true" : undefined}
                  className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left hover:bg-zinc-100 aria-[current=true]:bg-blue-50 dark:hover:bg-zinc-800 dark:aria-[current=true]:bg-blue-950"
                >
                  <span className="min-w-0 flex-1 truncate">{app.name}</span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    <KeyHint keyHint={app.keyHint} />
                  </span>
                  {app.rejected ? <RejectedBadge /> : null}
                </button>
              </form>
            </li>
          ))}
        </ul>
        <div className="mt-1 border-t border-zinc-200 px-2 pt-2 dark:border-zinc-800">
          <a href="/applications" className="btn-link text-sm">
            Add or manage applications
          </a>
        </div>
      </div>
    </details>
  );
}
