"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useShortcuts } from "@/lib/browser/use-shortcuts";
import type { KeyHelp } from "@/components/shortcuts/keys-list";

export type { KeyHelp };

/** The list of keys, in its dialog. */
const KeysList = dynamic(() => import("@/components/shortcuts/keys-list").then((loaded) => loaded.KeysList));

interface Props {
  /** The rows `j`/`k` move through, in order. */
  rowSelector: string;
  /** Within a row, the control that opens it: focused on a move, so Enter opens the row. */
  openSelector: string;
  /** What a row is called, and what is said of it when moved to. */
  rowNoun: string;
  rowLabel: (row: HTMLElement) => string;
  /** The Find field `/` focuses. */
  findId: string;
  /** What `f` does: open and focus the page's filters. */
  onFilters: () => void;
  /** The page's lines of the list `?` shows, besides `?` itself. */
  help: KeyHelp[];
}

/**
 * Keyboard triage on a page: `j`/`k` move the focus through the rows (to each row's open control,
 * so Enter opens it and Esc closes its dialog), `/` focuses Find, `f` opens the filters, `?` lists
 * the keys in a dialog. Each move is announced in a live region; the "Keyboard shortcuts" button
 * is the way to the list without knowing the key.
 */
export function TriageKeys({ rowSelector, openSelector, rowNoun, rowLabel, findId, onFilters, help }: Props) {
  const [announcement, setAnnouncement] = useState("");
  // The list of keys is a chunk of its own, loaded the first time it is asked for (then kept).
  const [asked, setAsked] = useState(0);

  function move(step: 1 | -1) {
    const rows = [...document.querySelectorAll<HTMLElement>(rowSelector)];
    if (rows.length === 0) {
      setAnnouncement(`No ${rowNoun}s to move through.`);
      return;
    }
    const at = rows.findIndex((row) => row.contains(document.activeElement));
    const next =
      at === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
    const row = rows[next]!;
    (row.querySelector<HTMLElement>(openSelector) ?? row).focus();
    const edge = next === at ? (step === 1 ? " (the last)" : " (the first)") : "";
    setAnnouncement(
      `${rowNoun[0]!.toUpperCase()}${rowNoun.slice(1)} ${next + 1} of ${rows.length}${edge}: ${rowLabel(row)}. Enter opens it.`,
    );
  }

  const showKeys = () => setAsked((n) => n + 1);
  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    "/": () => document.getElementById(findId)?.focus(),
    f: onFilters,
    "?": showKeys,
  });

  return (
    <>
      <button type="button" className="btn btn-small" aria-keyshortcuts="?" onClick={showKeys}>
        Keyboard shortcuts
      </button>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {asked > 0 ? (
        <KeysList asked={asked} lines={[...help, { keys: ["?"], does: "Show this list of keys" }]} />
      ) : null}
    </>
  );
}
