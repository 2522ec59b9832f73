import { useEffect, useRef } from "react";

/**
 * Single-key shortcuts for triage: `j`/`k` move through rows, `/` focuses Find, `f` opens the
 * filters, `?` lists the keys (Enter and Esc are the focused control's and the dialog's own).
 * A key fires only when pressed alone, outside any field a person types in, and while no modal
 * dialog is open.
 */

export const SHORTCUT_KEYS = ["j", "k", "/", "f", "?"] as const;
export type ShortcutKey = (typeof SHORTCUT_KEYS)[number];

/** The parts of a keydown event the filter reads (a DOM KeyboardEvent has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

/** The parts of an element that tell whether a person types in it. */
interface TargetShape {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
  closest?: (selector: string) => unknown;
}

/** Input types whose keys are not text: a shortcut pressed there still fires. */
const NON_TEXT_INPUTS = new Set([
  "button",
  "checkbox",
  "radio",
  "submit",
  "reset",
  "range",
  "color",
  "file",
  "image",
]);

/** True for a text field, a text area, a select, or anything editable: its keys are the person's text. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const element = target as TargetShape | null;
  if (!element || typeof element.tagName !== "string") return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") return !NON_TEXT_INPUTS.has((element.type ?? "text").toLowerCase());
  return false;
}

/** The shortcut this key press is, or null when it must reach the page as it is. */
export function shortcutOf(press: KeyPress): ShortcutKey | null {
  // Shift is how `?` is typed on most layouts, so only Ctrl, Alt and Meta (⌘) rule a key out.
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.isComposing || press.defaultPrevented) return null;
  if (isTypingTarget(press.target)) return null;
  return (SHORTCUT_KEYS as readonly string[]).includes(press.key) ? (press.key as ShortcutKey) : null;
}

/**
 * Calls the handler of each shortcut pressed on the page. Handlers may change every render; the
 * listener is added once. A handled key does nothing else (`/` is not typed into the field it focuses).
 */
export function useShortcuts(handlers: Partial<Record<ShortcutKey, () => void>>): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const key = shortcutOf(event);
      if (!key || document.querySelector("dialog[open]")) return;
      const handler = current.current[key];
      if (!handler) return;
      event.preventDefault();
      handler();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
