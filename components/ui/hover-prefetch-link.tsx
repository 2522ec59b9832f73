"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * A `next/link` that prefetches its page when pointed at, touched or focused, not as soon as it is on
 * screen (Next's "hover-triggered prefetch"). For the header's links: on every page, they are
 * rarely the next step, and a viewport prefetch decodes a route tree while the page is still
 * becoming interactive.
 */
export function HoverPrefetchLink({
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: Omit<ComponentProps<typeof Link>, "prefetch">) {
  const [intent, setIntent] = useState(false);
  /** The caller's own handler, after noting the intent. */
  const noting =
    <E,>(handler?: (event: E) => void) =>
    (event: E) => {
      setIntent(true);
      handler?.(event);
    };
  return (
    <Link
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={noting(onMouseEnter)}
      onFocus={noting(onFocus)}
      onTouchStart={noting(onTouchStart)}
    />
  );
}
