import { render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AnswerView } from "@/components/webhook/answer-view";

const router = { refresh: vi.fn() };
let search = new URLSearchParams();

vi.mock("next/navigation", () => ({
  useRouter: () => router,
  useSearchParams: () => search,
}));

const ISSUE = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const OTHER = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

describe("AnswerView (the webhook's answer is a layout: Next renders it again only when asked)", () => {
  beforeEach(() => router.refresh.mockClear());

  it.each([
    { url: "app=a1&status=Failed&page=3&limit=10", health: null, issue: null, refreshes: false },
    { url: "app=a1&log=" + ISSUE, health: null, issue: null, refreshes: false },
    { url: "app=a1&health=7d", health: "7d", issue: null, refreshes: false },
    { url: "app=a1&health=7d&issue=" + ISSUE + "&page=2", health: "7d", issue: ISSUE, refreshes: false },
    { url: "app=a1&health=7d", health: null, issue: null, refreshes: true },
    { url: "app=a1", health: "1h", issue: null, refreshes: true },
    { url: "app=a1&issue=" + OTHER, health: null, issue: ISSUE, refreshes: true },
    { url: "app=a1", health: null, issue: ISSUE, refreshes: true },
  ])("URL ?$url, answer rendered for health $health and issue $issue: refreshes $refreshes", (row) => {
    search = new URLSearchParams(row.url);
    render(<AnswerView health={row.health} issue={row.issue} />);
    expect(router.refresh).toHaveBeenCalledTimes(row.refreshes ? 1 : 0);
  });

  it("asks once for a change, not on every render", () => {
    search = new URLSearchParams("app=a1&health=7d");
    const { rerender } = render(<AnswerView health={null} issue={null} />);
    rerender(<AnswerView health={null} issue={null} />);
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("asks again when the URL moves on before the answer for the last view arrived", () => {
    search = new URLSearchParams("app=a1&health=1h");
    const { rerender } = render(<AnswerView health={null} issue={null} />);
    search = new URLSearchParams("app=a1&health=7d");
    rerender(<AnswerView health={null} issue={null} />);
    expect(router.refresh).toHaveBeenCalledTimes(2);
  });
});
