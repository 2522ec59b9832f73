import { render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import { lazyPart } from "@/components/ui/lazy-part";

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

describe("lazyPart", () => {
  it("loads its code once, when first rendered, and renders it with the props it was given", async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const Part = lazyPart(load);
    expect(load).not.toHaveBeenCalled();

    const { rerender } = render(
      <Suspense fallback={<p>Loading…</p>}>
        <Part name="Ada" />
      </Suspense>,
    );
    expect(await screen.findByText("Hello, Ada")).toBeTruthy();
    rerender(
      <Suspense fallback={<p>Loading…</p>}>
        <Part name="Grace" />
      </Suspense>,
    );
    expect(await screen.findByText("Hello, Grace")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("is a plain component, so that a server component can render it through a client reference", () => {
    expect(typeof lazyPart(() => Promise.resolve(Greeting))).toBe("function");
  });
});
