import { describe, expect, it } from "vitest";
import { KeyBudgets } from "@/lib/server/history/key-budget";

describe("KeyBudgets.left", () => {
  it("tells the calls each key used may make now: its burst less what it took, none while paused", async () => {
    const budgets = new KeyBudgets(100);
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await budgets.take("shop", signal);
    await budgets.take("billing", signal);
    expect(budgets.left()).toEqual([
      { key: "shop", calls: 7 },
      { key: "billing", calls: 9 },
    ]);
    budgets.pause("billing", 5);
    expect(budgets.left().find((b) => b.key === "billing")).toEqual({ key: "billing", calls: 0 });
    // A minute later every bucket is full again, the pause over.
    expect(budgets.left(Date.now() + 60_000)).toEqual([
      { key: "shop", calls: 10 },
      { key: "billing", calls: 10 },
    ]);
  });
});
