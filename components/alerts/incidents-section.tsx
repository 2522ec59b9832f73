"use client";

import { useQuery } from "@tanstack/react-query";
import { codeText } from "@/lib/domain/alerts/message";
import { firingText, type IncidentView } from "@/lib/domain/alerts/incidents";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { incidentsQueryOptions } from "@/components/alerts/incidents-query";
import { NotifyControl } from "@/components/alerts/notify-control";

function IncidentTable({
  incidents,
  caption,
  resolved = false,
}: {
  incidents: IncidentView[];
  caption: string;
  resolved?: boolean;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs text-zinc-600 dark:text-zinc-400">
          <tr>
            <th className="py-1 pr-3">Webhook</th>
            <th className="py-1 pr-3">What is wrong</th>
            <th className="py-1 pr-3">Since</th>
            {resolved ? <th className="py-1">Resolved</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {incidents.map((incident) => (
            <tr key={incident.id} className="align-top">
              <td className="py-1.5 pr-3">
                <a href={incident.href} className="btn-link">
                  {incident.name}
                </a>
                <span className="block text-xs break-all text-zinc-600 dark:text-zinc-400">
                  {incident.endpoint || "every watched webhook"} · {incident.applicationName}
                </span>
              </td>
              <td className="py-1.5 pr-3">
                {resolved ? <span className="block">{incident.headline}</span> : null}
                <ul>
                  {incident.conditions.map((condition) => (
                    <li key={condition.rule}>
                      <span className="font-medium">{condition.name}:</span> {condition.headline}
                    </li>
                  ))}
                </ul>
                {incident.counts ? (
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {incident.counts.failures} of {incident.counts.attempts} attempts failed
                    {incident.codes.length > 0
                      ? ` · ${incident.codes.map(({ code, count }) => `${codeText(code)} ×${count}`).join(", ")}`
                      : ""}
                  </span>
                ) : null}
              </td>
              <td className="py-1.5 pr-3 whitespace-nowrap">
                <LocalTime iso={incident.since ?? incident.openedAt} form="relative" />
              </td>
              {resolved ? (
                <td className="py-1.5 whitespace-nowrap">
                  {incident.resolvedAt ? <LocalTime iso={incident.resolvedAt} form="relative" /> : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The Alerts page's "Incidents": what fires now in every application of the session, and what resolved lately. */
export function IncidentsSection() {
  const incidents = useQuery(incidentsQueryOptions());

  return (
    <section id="incidents" aria-labelledby="incidents-heading" className="card space-y-3 p-4">
      <div>
        <h2 id="incidents-heading" className="text-base font-semibold">
          Incidents
        </h2>
        <p className="field-hint">
          One incident per failing webhook, listing what holds on it, from its first alert until it delivers
          again (or what held clears), for every application you are signed in to.
        </p>
      </div>
      <NotifyControl />
      {incidents.error ? (
        <Notice tone="error" title="The incidents could not be read">
          <p>{incidents.error.message}</p>
        </Notice>
      ) : incidents.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Reading the incidents…</p>
      ) : (
        <>
          <h3 className="text-sm font-semibold">
            Failing now{incidents.data.firing.length > 0 ? `: ${firingText(incidents.data.firing)}` : ""}
          </h3>
          {incidents.data.firing.length === 0 ? (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">Nothing is failing.</p>
          ) : (
            <IncidentTable incidents={incidents.data.firing} caption="Firing incidents" />
          )}
          {incidents.data.summaries.map((summary) => (
            <p key={summary.id} className="text-sm text-zinc-700 dark:text-zinc-300">
              Told as one alert in {summary.applicationName}: {summary.headline}.
            </p>
          ))}
          <h3 className="text-sm font-semibold">Resolved lately</h3>
          {incidents.data.resolved.length === 0 ? (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">No incident has resolved yet.</p>
          ) : (
            <IncidentTable incidents={incidents.data.resolved} caption="Resolved incidents" resolved />
          )}
        </>
      )}
    </section>
  );
}
