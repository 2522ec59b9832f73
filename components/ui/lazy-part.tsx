import { lazy, type ComponentType } from "react";

/**
 * A part of the page in a chunk of its own (React.lazy, under a Suspense). When the chunk cannot be
 * loaded (the network failed, or the console was updated since the page was opened), `Unavailable`
 * renders in its place: the rest of the page keeps working. `preload()` starts fetching the chunk
 * ahead of the render (on a person's intent, or after load); a failure there is ignored, since the
 * render loads it again and shows `Unavailable` if that fails too.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Unavailable: ComponentType<P>,
) {
  const Part = lazy(() =>
    load().then(
      (Component) => ({ default: Component }),
      () => ({ default: Unavailable }),
    ),
  );
  return Object.assign(Part, { preload: () => void load().catch(() => undefined) });
}

/** The usual `Unavailable`: says what could not be loaded, with Reload. */
export function PartUnavailable({ what }: { what: string }) {
  return (
    <div role="alert" className="space-y-2 text-sm">
      <p>
        The {what} could not be loaded: the network failed, or the console was updated since this page was
        opened. Reload the page to get it.
      </p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </div>
  );
}
