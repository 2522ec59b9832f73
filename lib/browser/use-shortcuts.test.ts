import { describe, expect, it } from "vitest";
import { isTypingTarget, shortcutOf, type KeyPress } from "@/lib/browser/use-shortcuts";

/** Elements as the filter sees them: a tag name, and whether it is editable. */
const element = (tagName: string, extra: { type?: string; isContentEditable?: boolean } = {}) =>
  ({ tagName: tagName.toUpperCase(), isContentEditable: false, ...extra }) as unknown as EventTarget;

const BODY = element("body");

function press(key: string, init: Partial<KeyPress> = {}): KeyPress {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    isComposing: false,
    defaultPrevented: false,
    target: BODY,
    ...init,
  };
}

describe("keyboard shortcuts", () => {
  it("fires j, k, /, f and ? pressed on the page, a row's button or a link", () => {
    for (const key of ["j", "k", "/", "f", "?"]) expect(shortcutOf(press(key))).toBe(key);
    expect(shortcutOf(press("j", { target: element("button") }))).toBe("j");
    expect(shortcutOf(press("k", { target: element("a") }))).toBe("k");
    expect(shortcutOf(press("f", { target: element("input", { type: "checkbox" }) }))).toBe("f");
    // `?` is typed with Shift on most layouts: Shift does not rule it out.
    expect(shortcutOf(press("?", { target: element("summary") }))).toBe("?");
  });

  it("ignores every key typed in a field: text, search, number, a text area, a select, editable text", () => {
    const fields = [
      element("input"),
      element("input", { type: "search" }),
      element("input", { type: "datetime-local" }),
      element("input", { type: "NUMBER" }),
      element("textarea"),
      element("select"),
      element("div", { isContentEditable: true }),
    ];
    for (const target of fields) {
      expect(isTypingTarget(target)).toBe(true);
      for (const key of ["j", "k", "/", "f", "?"]) expect(shortcutOf(press(key, { target }))).toBeNull();
    }
    expect(isTypingTarget(BODY)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it("ignores keys with Ctrl, Alt or ⌘, while composing text, or already handled", () => {
    expect(shortcutOf(press("f", { ctrlKey: true }))).toBeNull();
    expect(shortcutOf(press("k", { metaKey: true }))).toBeNull();
    expect(shortcutOf(press("j", { altKey: true }))).toBeNull();
    expect(shortcutOf(press("/", { isComposing: true }))).toBeNull();
    expect(shortcutOf(press("j", { defaultPrevented: true }))).toBeNull();
  });

  it("ignores other keys, and capitals (Shift+J is not j)", () => {
    for (const key of ["J", "F", "x", "Enter", "Escape", " ", "ArrowDown"])
      expect(shortcutOf(press(key))).toBeNull();
  });
});
