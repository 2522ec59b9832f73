import { describe, expect, it } from "vitest";
import type { TimelineEvent } from "@/lib/domain/watch/stored-log";
import {
  CHANGES_LISTED,
  changesBetween,
  changesSentence,
  changeText,
  NOT_WATCHED,
} from "@/lib/domain/bundle/webhook-changes";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 9, minute)).toISOString();
const errors = (minute: number, previous: number | null, now: number): TimelineEvent => ({
  at: at(minute),
  kind: "errors",
  active: true,
  numberOfErrors: now,
  previous,
});
const active = (minute: number, value: boolean, previous: boolean | null): TimelineEvent => ({
  at: at(minute),
  kind: "active",
  active: value,
  numberOfErrors: 0,
  previous,
});
const words = (iso: string) => iso.slice(11, 16);

describe("the webhook's own changes between the last success and a failure", () => {
  it("says plainly when the webhook is not watched", () => {
    expect(changesSentence(NOT_WATCHED, at(0), words)).toBe(
      "This webhook is not watched, so its changes between the two deliveries are not known.",
    );
  });

  it("says when nothing changed, and when the watch began after the last success", () => {
    expect(changesSentence(changesBetween([], at(0)), at(1), words)).toBe(
      "The webhook itself (active, numberOfErrors) did not change between them.",
    );
    expect(changesSentence(changesBetween([], at(30)), at(1), words)).toBe(
      "The webhook itself (active, numberOfErrors) did not change since the watch began at 09:30, " +
        "after the last success (earlier changes are not known).",
    );
    expect(changesSentence(changesBetween([errors(40, 3, 5)], at(30)), at(1), words)).toBe(
      "The webhook changed 1 time since the watch began at 09:30, after the last success " +
        "(earlier changes are not known): numberOfErrors went from 3 to 5.",
    );
  });

  it("lists the changes oldest first and tells the flips of active and the net move of numberOfErrors", () => {
    const changes = changesBetween(
      [errors(9, 6, 8), active(8, true, false), active(7, false, true), errors(6, 3, 6)],
      at(0),
    );
    expect(changes).toMatchObject({ known: true, more: 0, flips: [false, true], errors: { from: 3, to: 8 } });
    if (!changes.known) throw new Error("known");
    expect(changes.events.map(changeText)).toEqual([
      "numberOfErrors 3 → 6",
      "Deactivated (active true → false)",
      "Activated (active false → true)",
      "numberOfErrors 6 → 8",
    ]);
    expect(changesSentence(changes, at(1), words)).toBe(
      "The webhook changed 4 times between them: it was deactivated, then activated; numberOfErrors went from 3 to 8.",
    );
  });

  it("lists only the newest CHANGES_LISTED, counts the rest, and keeps the net change over all", () => {
    const many = Array.from({ length: CHANGES_LISTED + 5 }, (_, i) => errors(i, i, i + 1)).reverse();
    const changes = changesBetween(many, at(0));
    if (!changes.known) throw new Error("known");
    expect(changes.events).toHaveLength(CHANGES_LISTED);
    expect(changes.more).toBe(5);
    expect(changes.events[0]!.numberOfErrors).toBe(6);
    expect(changes.errors).toEqual({ from: 0, to: CHANGES_LISTED + 5 });
  });

  it("names first sightings (no value before) without calling them a change of value", () => {
    expect(changeText(active(0, true, null))).toBe("First seen active");
    expect(changeText(errors(0, null, 2))).toBe("First seen with numberOfErrors 2");
    expect(changesBetween([errors(0, null, 2)], at(0))).toMatchObject({ errors: null, flips: [] });
  });

  it("counts only changes of a value in its sentence, not the first sightings listed with them", () => {
    const changes = changesBetween([errors(2, 53, 54), errors(1, null, 53), active(1, true, null)], at(0));
    expect(changesSentence(changes, at(0), words)).toBe(
      "The webhook changed 1 time between them: numberOfErrors went from 53 to 54.",
    );
    if (!changes.known) throw new Error("known");
    expect(changes.events.map(changeText)).toEqual([
      "First seen active",
      "First seen with numberOfErrors 53",
      "numberOfErrors 53 → 54",
    ]);
    expect(changesSentence(changesBetween([active(1, true, null)], at(0)), at(0), words)).toBe(
      "The webhook itself (active, numberOfErrors) did not change between them.",
    );
  });
});
