import { startTransition, useEffect, useState, type RefObject } from "react";

/** How close to the screen a part counts as reached: within a screen's height above or below it. */
const NEAR = "100% 0px";

/** What a person does that shows they are about to use a part. */
const INTENT = ["pointerenter", "focusin", "touchstart"] as const;

/**
 * False until the person comes to the element: the pointer or focus enters it, or, once
 * `settled`, it is within a screen of the viewport. Before the page's streamed parts are in, the
 * page is short and everything is near: where the element is only counts once they are. What
 * renders behind it, and the chunk that code is in, waits until then: the page's first load does
 * not carry code for a part nobody has reached.
 */
export function useReached(ref: RefObject<HTMLElement | null>, settled: boolean): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (reached || !element) return;
    // A transition: what renders behind it renders in slices, not one long task.
    const reach = () => startTransition(() => setReached(true));
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && reach(), {
      rootMargin: NEAR,
    });
    if (settled) observer.observe(element);
    for (const type of INTENT) element.addEventListener(type, reach, { passive: true });
    return () => {
      observer.disconnect();
      for (const type of INTENT) element.removeEventListener(type, reach);
    };
  }, [ref, reached, settled]);
  return reached;
}
