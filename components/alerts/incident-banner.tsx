"use client";

import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { firingText, newestFiring, type IncidentsAnswer } from "@/lib/domain/alerts/incidents";
import { notifyIncidents } from "@/lib/browser/incident-notifications";
import { dismissIncidents, useDismissedIncidents } from "@/lib/browser/local-store";
import { incidentsQueryOptions } from "@/components/alerts/incidents-query";
import { QueryProvider } from "@/components/ui/query-provider";

/** What the live region says when incidents fire that the previous read did not have. */
function announcementOf(previous: IncidentsAnswer, next: IncidentsAnswer): string | null {
  const known = new Set(previous.firing.map((incident) => incident.id));
  const newest = newestFiring(next.firing.filter((incident) => !known.has(incident.id)));
  return newest ? `Now failing: ${newest.name}: ${newest.headline}` : null;
}

/** The banner with the query client it reads through (it loads after the page: see QueryProvider). */
export default function IncidentBanner() {
  return (
    <QueryProvider>
      <Banner />
    </QueryProvider>
  );
}

/**
 * The banner on every signed-in page while alerts fire: how many webhooks fail (one each, whatever
 * holds on them), the newest one's headline, and links to its webhook and to the Alerts page. Dismissed, it stays hidden until an incident fires
 * that was not in the dismissed set. Each incident that fires after the page opened is announced
 * politely, and notified when the browser allows it.
 */
function Banner() {
  const { data } = useQuery(incidentsQueryOptions());
  const dismissed = useDismissedIncidents();
  const [previous, setPrevious] = useState(data);
  const [announcement, setAnnouncement] = useState("");
  if (data !== previous) {
    setPrevious(data);
    const said = previous && data ? announcementOf(previous, data) : null;
    if (said) setAnnouncement(said);
  }

  useEffect(() => {
    if (data) notifyIncidents(data);
  }, [data]);

  const firing = data?.firing ?? [];
  const newest = newestFiring(firing);
  const shown = newest !== null && firing.some((incident) => !dismissed.includes(incident.id));
  return (
    <>
      {/* A polite live region without the status role: the page's own status messages stay the one "status". */}
      <div aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
      {shown ? (
        <section
          aria-label="Alerts firing"
          className="border-b border-red-200 bg-red-50 text-red-950 dark:border-red-900 dark:bg-red-950/60 dark:text-red-50"
        >
          <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-x-4 gap-y-1.5 px-4 py-2 text-sm sm:px-6">
            {/* The count and the newest alert on lines of their own: a long name wrapping beside the count would be drawn over it. */}
            <p className="min-w-0 flex-1 basis-64 break-words">
              <strong className="block font-semibold">{firingText(firing)}.</strong>{" "}
              <span className="block">
                Newest:{" "}
                <a href={newest.href} className="font-medium underline underline-offset-2">
                  {newest.name}
                </a>
                : {newest.headline}
              </span>
            </p>
            <a href="/alerts#incidents" className="font-medium underline underline-offset-2">
              See all on the Alerts page
            </a>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => dismissIncidents(firing.map((incident) => incident.id))}
            >
              Dismiss
            </button>
          </div>
        </section>
      ) : null}
    </>
  );
}
