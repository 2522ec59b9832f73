"use client";

import { FIND_ACROSS_INPUT_ID } from "@/components/find/find-across-box";
import { TriageKeys } from "@/components/shortcuts/triage-keys";

/** Where `f` leads on a webhook's page: the section of filters over its whole history. */
export const HISTORY_FILTERS_ID = "history-filters";
/** Where `f` leads on the overview: its search over names and endpoints. */
export const OVERVIEW_SEARCH_ID = "overview-q";

/** The first cells of a row as a screen reader reads them (icons hidden from it left out), for the announcement of a move. */
function firstCells(row: HTMLElement, count: number): string {
  return [...row.querySelectorAll(":scope > th, :scope > td")]
    .slice(0, count)
    .map((cell) => {
      const copy = cell.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
      return copy.textContent?.replace(/\s+/g, " ").trim();
    })
    .filter(Boolean)
    .join(", ");
}

/** The keys of a webhook's page: rows of the log table, its Find a delivery, its history filters. */
export function LogTableKeys() {
  return (
    <TriageKeys
      rowSelector="#deliveries tbody tr[data-log-id]"
      openSelector="[data-details-for]"
      rowNoun="delivery"
      rowLabel={(row) => firstCells(row, 3)}
      findId="find-delivery"
      onFilters={() => {
        const section = document.getElementById(HISTORY_FILTERS_ID);
        if (!(section instanceof HTMLDetailsElement)) return;
        section.open = true;
        section.querySelector("summary")?.focus();
      }}
      help={[
        { keys: ["j", "k"], does: "Move to the next or previous delivery in the table" },
        { keys: ["Enter"], does: "Open the delivery moved to" },
        { keys: ["Esc"], does: "Close the delivery's details (or this list)" },
        { keys: ["/"], does: "Find a delivery of this webhook" },
        { keys: ["f"], does: "Open the filters over the whole history" },
      ]}
    />
  );
}

/** The keys of the overview: its rows, the header's Find in watched webhooks, its search. */
export function OverviewKeys() {
  return (
    <TriageKeys
      rowSelector="tr[data-webhook-id]"
      openSelector="th a"
      rowNoun="watched webhook"
      rowLabel={(row) => firstCells(row, 4)}
      findId={FIND_ACROSS_INPUT_ID}
      onFilters={() => document.getElementById(OVERVIEW_SEARCH_ID)?.focus()}
      help={[
        { keys: ["j", "k"], does: "Move to the next or previous watched webhook" },
        { keys: ["Enter"], does: "Open the webhook moved to" },
        { keys: ["Esc"], does: "Close this list" },
        { keys: ["/"], does: "Find a delivery in every watched webhook" },
        { keys: ["f"], does: "Search the overview's names and endpoints" },
      ]}
    />
  );
}
