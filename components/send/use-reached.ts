import { startTransition, useEffect, useState, type RefObject } from "react";

/** How close to the screen a part counts as reached: within a screen's height above or below it. */
const NEAR = "100% 0px";

/** What a person does that shows they are about to use a part. */
const INTENT = ["pointerenter", "focusin", "touchstart"] as const;

/**
 * False until the person comes to the element: it scrolls within a screen of the viewport, or the
 * pointer or focus enters it. What renders behind it, and the chunk that code is in, waits until
 * then: the page's first load does not carry code for a part nobody has reached.
 */
export function useReached(ref: RefObject<HTMLElement | null>): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (reached || !element) return;
    // A transition: what renders behind it renders in slices, not one long task.
    const reach = () => startTransition(() => setReached(true));
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && reach(), {
      rootMargin: NEAR,
    });
    observer.observe(element);
    for (const type of INTENT) element.addEventListener(type, reach, { passive: true });
    return () => {
      observer.disconnect();
      for (const type of INTENT) element.removeEventListener(type, reach);
    };
  }, [ref, reached]);
  return reached;
}
