import { lazy, type ComponentType } from "react";

/**
 * A part of a page in a chunk of its own, loaded when the page first shows it: React's lazy(),
 * inside a plain component so that a server component can render it too (React cannot render a
 * lazy() that a client reference resolves to). Not next/dynamic: for a part the server renders,
 * its preload names chunks Turbopack does not write, a 404 in the browser's console.
 */
export function lazyPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  return function LazyPart(props: Props) {
    return <Loaded {...props} />;
  };
}
