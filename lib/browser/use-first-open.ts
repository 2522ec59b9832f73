import { useEffect, useRef, useState, type SyntheticEvent } from "react";

/**
 * Whether a `<details>` has been opened yet, for a part rendered (and its chunk loaded) only once
 * it is first opened, then kept. An opening made before React hydrated the element counts too:
 * its toggle event fired with nobody listening. Spread `details` on the element.
 */
export function useFirstOpen(initial = false) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [opened, setOpened] = useState(initial);
  useEffect(() => {
    if (ref.current?.open) setOpened(true);
  }, []);
  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open) setOpened(true);
  };
  return { opened, details: { ref, onToggle } };
}
