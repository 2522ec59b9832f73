"use client";

import { useQueryStates } from "nuqs";
import type { ApplicationSummary } from "@/lib/domain/applications";
import { overviewSearchParams } from "@/components/overview/search-params";

/** Failing only, one application, text over names and endpoints: each kept in the URL as it changes, and back to the first page. */
export function OverviewFilters({ applications }: { applications: ApplicationSummary[] }) {
  const [filters, setFilters] = useQueryStates(overviewSearchParams, { history: "replace" });
  const app = applications.some((known) => known.id === filters.app) ? filters.app : null;
  return (
    <form
      role="search"
      aria-label="Filter the overview"
      className="flex flex-wrap items-end gap-x-4 gap-y-2"
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="space-y-1">
        <label htmlFor="overview-q" className="field-label">
          Search names and endpoints
        </label>
        <input
          id="overview-q"
          type="search"
          autoComplete="off"
          aria-keyshortcuts="f"
          value={filters.q}
          onChange={(event) => void setFilters({ q: event.target.value || null, page: null })}
          className="field-input w-64 max-w-full"
        />
      </div>
      {applications.length > 1 ? (
        <div className="space-y-1">
          <label htmlFor="overview-app" className="field-label">
            Application
          </label>
          <select
            id="overview-app"
            value={app ?? ""}
            onChange={(event) => void setFilters({ app: event.target.value || null, page: null })}
            className="field-select"
          >
            <option value="">All applications</option>
            {applications.map((known) => (
              <option key={known.id} value={known.id}>
                {known.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <label className="flex items-center gap-2 pb-1.5 text-sm font-medium">
        <input
          type="checkbox"
          checked={filters.failing}
          onChange={(event) => void setFilters({ failing: event.target.checked || null, page: null })}
          className="size-4"
        />
        Failing only
      </label>
    </form>
  );
}
