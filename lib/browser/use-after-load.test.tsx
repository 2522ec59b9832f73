import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useAfterLoad } from "@/lib/browser/use-after-load";

function Probe() {
  return <p>{useAfterLoad() ? "after load" : "loading"}</p>;
}

/** A browser whose idle callbacks come by their timeout (`didTimeout`) `busyCalls` times, then when idle. */
function stubIdleCallbacks(busyCalls: number) {
  let calls = 0;
  window.requestIdleCallback = (callback: IdleRequestCallback) => {
    const didTimeout = calls++ < busyCalls;
    return window.setTimeout(() => callback({ didTimeout, timeRemaining: () => (didTimeout ? 0 : 10) }), 5);
  };
  window.cancelIdleCallback = (id: number) => window.clearTimeout(id);
  return () => calls;
}

describe("useAfterLoad", () => {
  const { requestIdleCallback, cancelIdleCallback } = window;
  afterEach(() => {
    cleanup();
    Object.assign(window, { requestIdleCallback, cancelIdleCallback });
  });

  it("waits for the browser to be idle: an idle callback that came by its timeout waits again", async () => {
    const calls = stubIdleCallbacks(3);
    render(<Probe />);
    expect(await screen.findByText("after load")).toBeTruthy();
    expect(calls()).toBe(4);
  });

  it("renders at once on the first idle callback that finds the browser idle", async () => {
    const calls = stubIdleCallbacks(0);
    render(<Probe />);
    expect(screen.getByText("loading")).toBeTruthy();
    expect(await screen.findByText("after load")).toBeTruthy();
    expect(calls()).toBe(1);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(calls()).toBe(1);
  });

  it("waits while a part the server streamed is not yet in place (its template), then renders", async () => {
    stubIdleCallbacks(0);
    const placeholder = document.createElement("template");
    placeholder.id = "B:0";
    document.body.append(placeholder);
    render(<Probe />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(screen.getByText("loading")).toBeTruthy();
    placeholder.remove();
    expect(await screen.findByText("after load")).toBeTruthy();
  });
});
