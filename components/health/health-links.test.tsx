import { fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { HealthLinks } from "@/components/health/health-links";

const push = vi.fn();
const FAILED_500 = "/webhooks/wh-1?status=Failed&code=500";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

describe("HealthLinks (the region's plain links, followed in the page)", () => {
  beforeEach(() => push.mockClear());

  function renderLinks() {
    render(
      <HealthLinks>
        <a href={FAILED_500}>HTTP 500</a>
        <a href="https://example.com/elsewhere">Elsewhere</a>
      </HealthLinks>,
    );
  }

  it("a click shows the link's view in the page without scrolling it", () => {
    renderLinks();
    const followed = fireEvent.click(screen.getByRole("link", { name: "HTTP 500" }));
    expect(followed).toBe(false);
    expect(push).toHaveBeenCalledWith(FAILED_500, { scroll: false });
  });

  it("leaves a click for a new tab, and a link to another site, to the browser", () => {
    renderLinks();
    expect(fireEvent.click(screen.getByRole("link", { name: "HTTP 500" }), { ctrlKey: true })).toBe(true);
    expect(fireEvent.click(screen.getByRole("link", { name: "Elsewhere" }))).toBe(true);
    expect(push).not.toHaveBeenCalled();
  });
});
