import type { MouseEvent } from "react";

/** A plain primary click: one with a modifier key (a new tab or window) is left to the browser. */
export function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
