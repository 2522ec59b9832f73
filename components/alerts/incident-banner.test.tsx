import { render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import IncidentBanner from "@/components/alerts/incident-banner";
import { ApiError } from "@/lib/browser/api";
import { getQueryClient } from "@/lib/browser/query-client";
import { fakeApi } from "@/tests/support/component-api";

const REJECTED = {
  status: 401,
  body: { error: { code: "unauthorized", message: 'The Messaging Hub rejects the key of "Default".' } },
};

afterEach(() => {
  getQueryClient().clear();
  vi.restoreAllMocks();
});

describe("IncidentBanner's read of the incidents", () => {
  it("is a poll: its 401 (a key rotated while the person replaces it on Applications) navigates nowhere", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    const calls = fakeApi(() => REJECTED);
    const { container } = render(<IncidentBanner />);
    await waitFor(() =>
      expect(getQueryClient().getQueryState(["alerts", "incidents"])?.status).toBe("error"),
    );
    expect(calls).toEqual([{ method: "GET", path: "/api/alerts/incidents", body: undefined, poll: true }]);
    expect(assign).not.toHaveBeenCalled();
    expect(container.querySelector("section")).toBeNull();
  });

  it("unlike a person's read, whose 401 ends the session", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    const read = getQueryClient().fetchQuery({
      queryKey: ["a person's read"],
      queryFn: () => Promise.reject(new ApiError(401, "unauthorized", "Rejected.")),
    });
    await expect(read).rejects.toThrow("Rejected.");
    expect(assign).toHaveBeenCalledWith("/api/session/end?reason=key_rejected");
  });
});
