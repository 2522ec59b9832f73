import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FindAcrossBox } from "@/components/find/find-across-box";
import { fakeApi } from "@/tests/support/component-api";

const NOT_FOUND = "No delivery with this ID in the watched webhooks.";

describe("FindAcrossBox (in the header of every page, without a query client)", () => {
  it("says why it found nothing by the field, and forgets it once the ID is edited", async () => {
    let answer: (() => void) | null = null;
    const calls = fakeApi(
      () =>
        new Promise((resolve) => {
          answer = () => resolve({ status: 404, body: { error: { code: "not_found", message: NOT_FOUND } } });
        }),
    );
    render(<FindAcrossBox />);
    const user = userEvent.setup();
    const box = screen.getByRole("searchbox", { name: "Find in watched webhooks" });
    await user.type(box, "abc");
    await user.click(screen.getByRole("button", { name: "Find" }));
    expect(await screen.findByRole("button", { name: "Finding…" })).toBeDisabled();
    expect(calls.map((call) => call.path)).toEqual(["/api/watches/find?q=abc"]);
    answer!();
    expect(await screen.findByRole("alert")).toHaveTextContent(NOT_FOUND);
    expect(box).toHaveAttribute("aria-invalid", "true");
    await user.type(box, "d");
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(screen.getByRole("button", { name: "Find" })).toBeEnabled();
  });

  it("opens what it found", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    fakeApi(() => ({ status: 200, body: { href: "/webhooks/w?app=a&log=l" } }));
    render(<FindAcrossBox />);
    const user = userEvent.setup();
    await user.type(screen.getByRole("searchbox", { name: "Find in watched webhooks" }), "l");
    await user.click(screen.getByRole("button", { name: "Find" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/webhooks/w?app=a&log=l"));
  });
});
