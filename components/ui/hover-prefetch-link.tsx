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
  return (
    <Link
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
