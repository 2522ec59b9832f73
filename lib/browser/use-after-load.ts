import { startTransition, useEffect, useState } from "react";

/** How often, while chunks are still coming, the page is looked at again. */
const RECHECK_MS = 50;
/** Past this after the load event, what waits renders whether or not a chunk is still coming. */
const SETTLE_MAX_MS = 10_000;

/** The browser's default resource timing buffer: once it is full, arrivals are no longer recorded. */
const RESOURCE_BUFFER = 250;

/**
 * Whether a script the page asked for has not arrived yet (it has no resource timing entry): the
 * chunk of a streamed part that React has yet to hydrate with it.
 */
function scriptsComing(): boolean {
  const arrived = performance.getEntriesByType("resource");
  // None at all: the browser keeps no resource timing here (a faked `performance`, as a test clock
  // installs), so nothing can be told apart and nothing is waited for.
  if (arrived.length === 0 || arrived.length >= RESOURCE_BUFFER) return false;
  const names = new Set(arrived.map((entry) => entry.name));
  // A `nomodule` script (the polyfills for old browsers) is never asked for.
  return [...document.scripts].some(
    (script) => script.src !== "" && !script.noModule && !names.has(script.src),
  );
}

/**
 * Whether a streamed part is still to be put in place (React's `<template id="B:…">` holds it):
 * React reveals them in batches, after the load event too. Bench row "page weight, first load".
 */
function partsComing(): boolean {
  return document.querySelector('template[id^="B:"]') !== null;
}

/**
 * False until the page has loaded, its streamed parts are in place with their chunks, and the
 * browser is idle (an idle wait that times out after `timeoutMs` waits again, up to
 * SETTLE_MAX_MS): what renders behind it, and the chunks it imports, wait until the rows are on
 * screen and interactive. The browser is idle while a late part's chunk downloads, before React
 * hydrates that part: the chunks coming are waited for too.
 */
export function useAfterLoad(timeoutMs = 2000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    let timer: number | undefined;
    let giveUpAt = Infinity;
    const whenIdle = (then: (deadline?: IdleDeadline) => void) =>
      typeof window.requestIdleCallback === "function"
        ? (idle = window.requestIdleCallback(then, { timeout: timeoutMs }))
        : (timer = window.setTimeout(then, 200));
    const settle = (deadline?: IdleDeadline) => {
      // Called by the timeout, not because the browser was idle: React may still be hydrating.
      const busy = deadline?.didTimeout === true;
      if ((busy || scriptsComing() || partsComing()) && Date.now() < giveUpAt) {
        timer = window.setTimeout(() => whenIdle(settle), RECHECK_MS);
        return;
      }
      // A transition: what renders behind it renders in slices, not one long task.
      startTransition(() => setReady(true));
    };
    const start = () => {
      giveUpAt = Date.now() + SETTLE_MAX_MS;
      whenIdle(settle);
    };
    if (document.readyState === "complete") start();
    window.addEventListener("load", start, { once: true });
    return () => {
      window.removeEventListener("load", start);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      window.clearTimeout(timer);
    };
  }, [timeoutMs]);
  return ready;
}
