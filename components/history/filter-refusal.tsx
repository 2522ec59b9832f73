"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import type { FieldErrors } from "@/lib/domain/api-error";
import { QUESTION_LABELS } from "@/lib/domain/inputs/history-filters";
import { LogTable, LogTableMessage } from "@/components/logs/log-table";

interface Refusal {
  /** What the filter form refused, by field; null while it refuses nothing. */
  errors: FieldErrors | null;
  refuse: (errors: FieldErrors | null) => void;
}

const RefusalContext = createContext<Refusal>({ errors: null, refuse: () => undefined });

/** What the filter form refused, and how to say so. */
export function useFilterRefusal(): Refusal {
  return useContext(RefusalContext);
}

/**
 * Holds what the history filter form refused, for the filters the page shows (`filters`, the
 * view's filters as one text): once the page shows others, the refusal is gone with them.
 */
export function FilterRefusal({ filters, children }: { filters: string; children: ReactNode }) {
  const [refused, setRefused] = useState<{ filters: string; errors: FieldErrors } | null>(null);
  const errors = refused?.filters === filters ? refused.errors : null;
  const refuse = (next: FieldErrors | null) => setRefused(next && { filters, errors: next });
  return <RefusalContext value={{ errors, refuse }}>{children}</RefusalContext>;
}

/**
 * The table's answer (`children`), unless the filters typed were refused: then no row is shown as
 * the answer to what was typed, and the table says what to fix.
 */
export function UnlessRefused({ children }: { children: ReactNode }) {
  const { errors } = useFilterRefusal();
  if (!errors) return children;
  const fields = Object.keys(errors).map(
    (name) => QUESTION_LABELS[name as keyof typeof QUESTION_LABELS] ?? name,
  );
  return (
    <LogTable>
      <LogTableMessage>
        <p role="status">
          No results shown: the filters above were not applied. Fix {fields.join(" and ")}, then apply them
          again.
        </p>
      </LogTableMessage>
    </LogTable>
  );
}
