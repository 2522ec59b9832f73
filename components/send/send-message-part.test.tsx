import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SendMessagePart } from "@/components/send/send-message-part";
import { fakeApi, renderWithQueries } from "@/tests/support/component-api";

/** What the viewport reports: the section is never near it (a long table above it). */
class FarAway {
  observe() {}
  disconnect() {}
}

describe("SendMessagePart", () => {
  beforeEach(() => vi.stubGlobal("IntersectionObserver", FarAway));
  afterEach(() => vi.unstubAllGlobals());

  /** The part on a webhook's page, with an API that lists no logs. */
  function renderPart() {
    fakeApi(() => ({ status: 200, body: { data: [], pagination: { offset: 0, limit: 50, total: 0 } } }));
    renderWithQueries(
      <SendMessagePart
        webhookId="0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d"
        webhookActive
        demoChannels={[]}
        onSent={() => undefined}
        onLanded={() => undefined}
        onShowDelivery={() => undefined}
      />,
    );
    return screen.getByRole("region", { name: "Send a test message" });
  }

  it("loads the form only once the person comes to it, here by the pointer entering its section", async () => {
    const section = renderPart();
    // Well past the page's load: still not asked for.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByLabelText("Channel kind")).toBeNull();
    fireEvent.pointerEnter(section);
    expect(await screen.findByLabelText("Channel kind", {}, { timeout: 5000 })).toBeTruthy();
  });

  it("waits, once reached, until the chunks of the page's streamed parts have arrived", async () => {
    // A late part's chunk the page has asked for: no resource timing entry yet.
    const chunk = document.createElement("script");
    chunk.src = "http://localhost:3000/_next/static/chunks/late-part.js";
    const arrived = [{ name: "http://localhost:3000/_next/static/chunks/main-app.js" } as PerformanceEntry];
    vi.spyOn(performance, "getEntriesByType").mockImplementation(() => arrived);
    document.head.append(chunk);
    try {
      fireEvent.pointerEnter(renderPart());
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(screen.queryByLabelText("Channel kind")).toBeNull();
      arrived.push({ name: chunk.src } as PerformanceEntry);
      expect(await screen.findByLabelText("Channel kind", {}, { timeout: 5000 })).toBeTruthy();
    } finally {
      chunk.remove();
      vi.restoreAllMocks();
    }
  });

  it("does not wait for chunks where the browser keeps no resource timing (a test's fake clock)", async () => {
    const chunk = document.createElement("script");
    chunk.src = "http://localhost:3000/_next/static/chunks/late-part.js";
    vi.spyOn(performance, "getEntriesByType").mockImplementation(() => []);
    document.head.append(chunk);
    try {
      fireEvent.pointerEnter(renderPart());
      expect(await screen.findByLabelText("Channel kind", {}, { timeout: 5000 })).toBeTruthy();
    } finally {
      chunk.remove();
      vi.restoreAllMocks();
    }
  });
});
