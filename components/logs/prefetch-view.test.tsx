import { render, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { PrefetchView } from "@/components/logs/prefetch-view";

const router = { prefetch: vi.fn() };

vi.mock("next/navigation", () => ({ useRouter: () => router }));

describe("PrefetchView", () => {
  it("prefetches the view in full (rows and all) once the page has loaded, and again only for another view", async () => {
    const { rerender } = render(<PrefetchView href="/webhooks/w?app=a&page=2" />);
    expect(router.prefetch).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(router.prefetch).toHaveBeenLastCalledWith("/webhooks/w?app=a&page=2", { kind: "full" }),
    );
    rerender(<PrefetchView href="/webhooks/w?app=a&page=2" />);
    expect(router.prefetch).toHaveBeenCalledTimes(1);
    rerender(<PrefetchView href="/webhooks/w?app=a&page=3" />);
    expect(router.prefetch).toHaveBeenCalledTimes(2);
    expect(router.prefetch).toHaveBeenLastCalledWith("/webhooks/w?app=a&page=3", { kind: "full" });
  });
});
