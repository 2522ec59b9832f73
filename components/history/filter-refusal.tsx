"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import type { FieldErrors } from "@/lib/domain/api-error";
import { LogTable, LogTableMessage } from "@/components/logs/log-table";

/** What the filter form refused, by field, and the refused fields' labels. */
export interface Refused {
  errors: FieldErrors;
  labels: string[];
}

interface Refusal {
  /** What the filter form refused; null while it refuses nothing. */
  refused: Refused | null;
  refuse: (refused: Refused | null) => void;
}

const RefusalContext = createContext<Refusal>({ refused: null, refuse: () => undefined });

/** What the filter form refused, and how to say so. */
export function useFilterRefusal(): Refusal {
  return useContext(RefusalContext);
}

/** Holds what the filter form refused, for the filters the page shows: once it shows others, it is gone. */
export function FilterRefusal({ filters, children }: { filters: string; children: ReactNode }) {
  const [refusal, setRefusal] = useState<{ filters: string; refused: Refused } | null>(null);
  const refused = refusal?.filters === filters ? refusal.refused : null;
  const refuse = (next: Refused | null) => setRefusal(next && { filters, refused: next });
  return <RefusalContext value={{ refused, refuse }}>{children}</RefusalContext>;
}

/** The table's answer, unless the filters typed were refused: then no row answers them, and it says what to fix. */
export function UnlessRefused({ children }: { children: ReactNode }) {
  const { refused } = useFilterRefusal();
  if (!refused) return children;
  return (
    <LogTable>
      <LogTableMessage>
        <p role="status">
          No results shown: the filters above were not applied. Fix {refused.labels.join(" and ")}, then apply
          them again.
        </p>
      </LogTableMessage>
    </LogTable>
  );
}
