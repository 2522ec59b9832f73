import type { ApplicationSummary } from "@/lib/domain/applications";
import type { WatcherHealth as Health } from "@/lib/domain/watch/overview";
import { formatSeconds } from "@/lib/domain/format-age";
import { DescriptionItem } from "@/components/ui/description-item";

/** The watcher's own health over the session's watches: how late it is, and what it cannot read. */
export function WatcherHealth({
  health,
  applications,
}: {
  health: Health;
  applications: ApplicationSummary[];
}) {
  const names = health.keysRejected.map(
    (id) => applications.find((app) => app.id === id)?.name ?? "another application",
  );
  const warn = "font-semibold text-amber-900 dark:text-amber-200";
  return (
    <section aria-labelledby="watcher-heading" className="card p-3">
      <h2 id="watcher-heading" className="sr-only">
        Watcher
      </h2>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
        <DescriptionItem label="Watched" valueClassName="font-semibold tabular-nums">
          {health.watched}
        </DescriptionItem>
        <DescriptionItem
          label="Watcher lag"
          valueClassName={`tabular-nums ${health.lagSeconds > 60 ? warn : "font-semibold"}`}
        >
          {formatSeconds(health.lagSeconds)}
        </DescriptionItem>
        <DescriptionItem label="Keys rejected" valueClassName={names.length ? warn : "font-semibold"}>
          {names.length ? names.join(", ") : "None"}
        </DescriptionItem>
        <DescriptionItem
          label="Polls failing"
          valueClassName={`tabular-nums ${health.pollsFailing ? warn : "font-semibold"}`}
        >
          {health.pollsFailing}
        </DescriptionItem>
        {health.backfilling ? (
          <DescriptionItem label="Reading history" valueClassName="font-semibold tabular-nums">
            {health.backfilling}
          </DescriptionItem>
        ) : null}
      </dl>
    </section>
  );
}
