import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { InlineQuestion } from "@/components/ui/inline-question";

function ask(busy = false) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <InlineQuestion
      question='Remove "On-call Slack"?'
      confirm="Remove destination"
      pending="Removing…"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  const group = screen.getByRole("group", { name: 'Remove "On-call Slack"?' });
  return { group, onConfirm, onCancel };
}

describe("InlineQuestion", () => {
  it("opens on its safe answer: Cancel has the focus", () => {
    ask();
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
  });

  it("Escape and Cancel cancel; only the action's button confirms", async () => {
    const user = userEvent.setup();
    const { onConfirm, onCancel } = ask();
    await user.keyboard("{Escape}");
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Remove destination" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("while the action runs, says so, and neither button nor Escape answers", async () => {
    const user = userEvent.setup();
    const { group, onCancel } = ask(true);
    expect(screen.getByRole("button", { name: "Removing…" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeDisabled();
    group.focus();
    await user.keyboard("{Escape}");
    expect(onCancel).not.toHaveBeenCalled();
  });
});
