import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { HealthWindowNav } from "@/components/health/health-window-nav";

let search = new URLSearchParams();

vi.mock("next/navigation", () => ({
  usePathname: () => "/webhooks/wh-1",
  useSearchParams: () => search,
}));

const LOG = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

describe("HealthWindowNav (the window picks keep the table's view as the URL has it now)", () => {
  it.each([
    {
      url: "app=a1&status=Failed&page=3",
      pick: "7 d",
      href: "/webhooks/wh-1?app=a1&status=Failed&page=3&health=7d",
    },
    {
      url: `app=a1&health=7d&code=500&log=${LOG}`,
      pick: "1 h",
      href: "/webhooks/wh-1?app=a1&health=1h&code=500",
    },
    { url: "app=a1&health=1h&limit=10", pick: "24 h", href: "/webhooks/wh-1?app=a1&limit=10" },
    { url: "health=7d", pick: "24 h", href: "/webhooks/wh-1" },
  ])("?$url, $pick links to $href", ({ url, pick, href }) => {
    search = new URLSearchParams(url);
    render(<HealthWindowNav window="24h" />);
    expect(screen.getByRole("link", { name: pick })).toHaveAttribute("href", href);
  });

  it("marks the window shown", () => {
    search = new URLSearchParams("health=1h");
    render(<HealthWindowNav window="1h" />);
    expect(screen.getByRole("link", { name: "1 h" })).toHaveAttribute("aria-current", "true");
    expect(screen.getByRole("link", { name: "7 d" })).not.toHaveAttribute("aria-current");
  });
});
