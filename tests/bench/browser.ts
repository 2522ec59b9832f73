/**
 * What a person's browser sees, measured in Chromium (Debian's, never downloaded): the page's
 * first-load JavaScript, whether the first HTML already holds log rows, and how long "Next page"
 * and a Status filter change take compared with one API round trip made from the same page.
 */
import zlib from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import playwrightConfig from "../../playwright.config";
import type { ActionMeasure, PageWeight } from "./figures";
import type { Figure } from "./report";
import { median } from "./stats";

/** Chromium as the e2e tests launch it (playwright.config.ts: Debian's binary or PLAYWRIGHT_CHROMIUM, same flags). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(playwrightConfig.use?.launchOptions);
}

// ---- page weight --------------------------------------------------------------------------

export interface ScriptWeight {
  url: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export function compressedSizes(body: Buffer): { gzip: number; brotli: number } {
  return {
    // Level 6 is zlib's default and what `next start` serves with.
    gzip: zlib.gzipSync(body, { level: 6 }).length,
    brotli: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/**
 * Set before the page's own scripts run: records (in the page's clock) when React has hydrated the
 * page, i.e. when every element of the body carries React's fiber key, the mark `hydrateRoot`
 * leaves on each server-rendered element it adopts. Checked once per frame. What React's streaming
 * puts in the body outside its tree is not counted: resource hints (`<link rel="preload">`) and the
 * hidden containers streamed content arrives in (`<div hidden>`, `<table hidden>` for rows).
 */
const HYDRATION_WATCH = `(() => {
  const isHydrated = (el) => Object.keys(el).some((key) => key.startsWith("__reactFiber$"));
  const check = () => {
    const body = document.body;
    if (body) {
      const pending = [...body.querySelectorAll("*")].some(
        (el) => !el.closest("script, template, link, [hidden], next-route-announcer") && !isHydrated(el),
      );
      if (!pending && body.children.length) return void (window.__benchHydratedAt = performance.now());
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/**
 * Loads `url` in a page that runs HYDRATION_WATCH (`addInitScript`) and waits until React has
 * hydrated it, so that DOM the bench adds is not thrown away by hydration; returns when that was.
 */
async function gotoHydrated(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "networkidle" });
  try {
    const handle = await page.waitForFunction(
      () => (window as unknown as { __benchHydratedAt?: number }).__benchHydratedAt,
      null,
      { timeout: ACTION_TIMEOUT_MS },
    );
    return (await handle.jsonValue()) as number;
  } catch (error) {
    throw new Error(`${url} was not hydrated; elements without React's mark: ${await unhydrated(page)}`, {
      cause: error,
    });
  }
}

/** The first few elements of the body React has not adopted, for the error that says so. */
function unhydrated(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.body.querySelectorAll("*")]
      .filter(
        (el) =>
          !el.closest("script, template, link, [hidden], next-route-announcer") &&
          !Object.keys(el).some((key) => key.startsWith("__reactFiber$")),
      )
      .slice(0, 5)
      .map((el) => el.outerHTML.slice(0, 160))
      .join(" | "),
  );
}

/** Script URLs the first HTML names: `<script src>` and `<link rel=preload|modulepreload as=script>`. */
export function scriptsNamedIn(html: string, base: string): Set<string> {
  const found = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi))
    if (match[1]) found.add(new URL(match[1], base).pathname);
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    const href = /\bhref="([^"]+)"/i.exec(tag)?.[1];
    if (href && /\brel="(?:preload|modulepreload)"/i.test(tag) && /\bas="script"/i.test(tag))
      found.add(new URL(href, base).pathname);
  }
  return found;
}

interface TimedScript extends ScriptWeight {
  /** When the page asked for it (the page's clock, ms), or null if unknown. */
  requestedAt: number | null;
}

/**
 * Split the scripts of one page load: first-load = named by the first HTML or requested before
 * React finished hydrating the page; the rest were requested later (idle, intent, interaction).
 */
export function splitFirstLoad(
  scripts: TimedScript[],
  namedInHtml: ReadonlySet<string>,
  hydratedAt: number,
): { firstLoad: TimedScript[]; later: TimedScript[] } {
  const firstLoad: TimedScript[] = [];
  const later: TimedScript[] = [];
  for (const script of scripts) {
    const early =
      namedInHtml.has(script.url) || script.requestedAt === null || script.requestedAt <= hydratedAt;
    (early ? firstLoad : later).push(script);
  }
  return { firstLoad, later };
}

/**
 * The page's JavaScript, split at hydration. Loads the page, waits for network idle, then shows
 * intent as a person would (pointer over the log table, focus into the send form) and waits for
 * network idle again, so chunks loaded on intent count under "after first load".
 */
export async function measurePageWeight(context: BrowserContext, pageUrl: string): Promise<PageWeight> {
  const page = await context.newPage();
  await page.addInitScript(HYDRATION_WATCH);
  const pending: Array<Promise<ScriptWeight | null>> = [];
  let documentGzip = 0;
  let documentHtml = "";
  page.on("response", (response) => {
    const type = response.request().resourceType();
    if (type === "document" && response.url() === pageUrl) {
      pending.push(
        response.body().then((b) => {
          documentGzip = compressedSizes(b).gzip;
          documentHtml = b.toString("utf8");
          return null;
        }),
      );
    }
    if (type !== "script") return;
    pending.push(
      response.body().then((body) => ({
        url: new URL(response.url()).pathname,
        raw: body.length,
        ...compressedSizes(body),
      })),
    );
  });
  const hydratedAt = await gotoHydrated(page, pageUrl);
  await logRows(page).first().hover();
  await page.getByRole("textbox").first().focus();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500);
  const requested = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => ({ url: new URL(entry.name).pathname, at: entry.startTime })),
  );
  const settled = await Promise.all(pending);
  await page.close();
  const requestedAt = new Map<string, number>();
  for (const entry of requested) if (!requestedAt.has(entry.url)) requestedAt.set(entry.url, entry.at);
  const scripts = settled
    .filter((s): s is ScriptWeight => s !== null)
    .sort((a, b) => b.gzip - a.gzip)
    .map((s) => ({ ...s, requestedAt: requestedAt.get(s.url) ?? null }));
  const namedInHtml = scriptsNamedIn(documentHtml, pageUrl);
  const { firstLoad, later } = splitFirstLoad(scripts, namedInHtml, hydratedAt);
  return { firstLoad, afterFirstLoad: later, hydratedAtMs: hydratedAt, documentGzip };
}

// ---- the log table ------------------------------------------------------------------------

/**
 * The page holds more than one table (the Delivery health region's "as a table" view comes first),
 * so everything the bench watches is found inside the log table: the table whose caption starts
 * with "Delivery logs". Plain JavaScript (see ARM_IN_PAGE), pasted into the page's scripts.
 */
const FIND_LOG_TABLE = `const logTable = () => Array.from(document.querySelectorAll("table")).find(
  (t) => (t.caption?.textContent || "").trim().startsWith("Delivery logs")) || null;`;

/** The log table's body rows, as a Playwright locator (Delivery health's table comes before it). */
export function logRows(page: Page) {
  return page
    .locator("table", { has: page.locator("caption", { hasText: /^\s*Delivery logs/ }) })
    .locator("tbody tr");
}

// ---- first paint --------------------------------------------------------------------------

/** Rows inside the `<tbody>` elements of an HTML document (header rows are in `<thead>`). */
export function countBodyRows(html: string): number {
  let rows = 0;
  for (const match of html.matchAll(/<tbody[\s>][\s\S]*?<\/tbody>/gi))
    rows += (match[0].match(/<tr[\s>]/gi) ?? []).length;
  return rows;
}

/**
 * Set before the page's own scripts run: records when the log table's first body row enters the DOM
 * (`__benchFirstRowAt`, on the clock of performance.now()). Plain JavaScript, see ARM_IN_PAGE.
 */
const WATCH_FIRST_ROW = `(() => {
  ${FIND_LOG_TABLE}
  const mark = () => {
    if (window.__benchFirstRowAt === undefined && logTable()?.querySelector("tbody tr")) {
      window.__benchFirstRowAt = performance.now();
    }
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
})()`;

export async function measureFirstPaint(
  context: BrowserContext,
  pageUrl: string,
  cookie: string,
): Promise<Figure> {
  const response = await fetch(pageUrl, { headers: { cookie }, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET ${pageUrl} with the session → HTTP ${response.status}`);
  const htmlRows = countBodyRows(html);

  // In the browser: which API calls started before the first row was in the page, by the page's own clock.
  const page = await context.newPage();
  await page.addInitScript(WATCH_FIRST_ROW);
  await page.goto(pageUrl, { waitUntil: "networkidle" });
  const seen = await page.evaluate(() => ({
    firstRowAt: (window as unknown as { __benchFirstRowAt?: number }).__benchFirstRowAt ?? null,
    api: performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.startsWith("/api/"))
      .map((e) => ({ url: e.name, startTime: e.startTime })),
  }));
  await page.close();
  if (seen.firstRowAt === null) throw new Error(`no table row showed on ${pageUrl}`);
  const before = seen.api.filter((r) => r.startTime < (seen.firstRowAt as number));
  const after = seen.api
    .filter((r) => r.startTime >= (seen.firstRowAt as number))
    .map((r) => new URL(r.url).search);

  return {
    figure: "first paint",
    measured:
      `${htmlRows} log rows in the first HTML; ${before.length} API requests before rows show` +
      (after.length ? ` (${after.length} after: ${after.join(", ")})` : ""),
    goal: "rows: yes; 0 requests",
    holds: htmlRows > 0 && before.length === 0 ? "yes" : "no",
    details: {
      htmlRows,
      firstRowAtMs: seen.firstRowAt,
      apiRequestsBeforeRows: before,
      apiRequestsAfterRows: after,
    },
  };
}

// ---- interaction --------------------------------------------------------------------------

/** What the armed watch reports, on the page's clock (ms). */
interface ActionTiming {
  start: number;
  end: number;
}

interface BenchWindow {
  __benchDone?: Promise<ActionTiming>;
}

/** How long an action may take to show its rows before the bench gives up on it (ms). */
const ACTION_TIMEOUT_MS = 15_000;

/**
 * Arms a watch in the page: the first click/input/change event starts the clock, and the clock
 * stops when the log table's body rows differ from what they were and are real rows again (as many
 * cells as its header has, so a one-cell "Loading…" or "No logs" row does not count). After
 * ACTION_TIMEOUT_MS without that, `__benchDone` rejects with what the table shows.
 * Plain JavaScript in a string: tsx's transform would wrap named functions in a helper the page lacks.
 */
const ARM_IN_PAGE = `(() => {
  ${FIND_LOG_TABLE}
  const table = logTable();
  if (!table) throw new Error("no log table (a table captioned \\"Delivery logs…\\") on the page");
  const rowsText = () => Array.from(table.querySelectorAll("tbody tr"), (tr) => tr.textContent || "").join("\\n");
  const realRows = () => {
    const first = table.querySelector("tbody tr");
    return first !== null && first.children.length === table.querySelectorAll("thead th").length;
  };
  const before = rowsText();
  let start = null;
  const begin = (event) => { if (start === null) start = event.timeStamp || performance.now(); };
  for (const type of ["click", "input", "change"]) window.addEventListener(type, begin, { capture: true, once: true });
  window.__benchDone = new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (start !== null && realRows() && rowsText() !== before) {
        observer.disconnect();
        clearTimeout(timer);
        resolve({ start, end: performance.now() });
      }
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      const shown = rowsText() === before
        ? "the same rows as before"
        : "rows that are not log rows: " + JSON.stringify(rowsText().slice(0, 200));
      const what = start === null ? "the action never reached the page (no click, input or change event)" : "no new log rows";
      reject(new Error(what + " after ${ACTION_TIMEOUT_MS} ms; the log table shows " + shown));
    }, ${ACTION_TIMEOUT_MS});
    observer.observe(table, { subtree: true, childList: true, characterData: true, attributes: true });
  });
})()`;

/** Waits for the armed watch's answer; an action that never shows its rows fails with the reason, never hangs. */
async function actionDone(page: Page, what: string): Promise<ActionTiming> {
  try {
    return await page.evaluate(() => (window as unknown as BenchWindow).__benchDone as Promise<ActionTiming>);
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`${what} on ${page.url()}: ${why}`);
  }
}

/**
 * Where an action's time went, from the page's Resource Timing: until the request for the new
 * rows started (state update and render before fetching), that request, and after its answer
 * until the rows showed. All null when it made no such request (e.g. the rows were prefetched).
 */
export interface Phases {
  beforeRequestMs: number | null;
  requestMs: number | null;
  afterResponseMs: number | null;
}

/** The median of each phase over the rounds that made a request; null when none did. */
export function medianPhases(
  all: readonly Phases[],
): { beforeRequestMs: number; requestMs: number; afterResponseMs: number } | null {
  const made = all.filter(
    (p) => p.beforeRequestMs !== null && p.requestMs !== null && p.afterResponseMs !== null,
  );
  if (made.length === 0) return null;
  return {
    beforeRequestMs: median(made.map((p) => p.beforeRequestMs as number)),
    requestMs: median(made.map((p) => p.requestMs as number)),
    afterResponseMs: median(made.map((p) => p.afterResponseMs as number)),
  };
}

/** Whether two URLs ask for the same thing: same path, same query parameters in any order. */
export function sameRequest(a: string, b: string): boolean {
  const [x, y] = [new URL(a, "http://x"), new URL(b, "http://x")];
  const params = (u: URL) =>
    [...u.searchParams]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join("&");
  return x.pathname === y.pathname && params(x) === params(y);
}

async function phasesOf(page: Page, timing: ActionTiming, apiUrl: string): Promise<Phases> {
  const entries = await page.evaluate(
    (from) =>
      performance
        .getEntriesByType("resource")
        .filter((e) => e.startTime >= from)
        .map((e) => ({
          name: e.name,
          startTime: e.startTime,
          responseEnd: (e as PerformanceResourceTiming).responseEnd,
        })),
    timing.start,
  );
  // The request for the rows shown (not, say, the prefetch of the page after them).
  const first = entries
    .filter((e) => sameRequest(e.name, apiUrl))
    .sort((a, b) => a.startTime - b.startTime)[0];
  if (!first || first.startTime > timing.end)
    return { beforeRequestMs: null, requestMs: null, afterResponseMs: null };
  return {
    beforeRequestMs: first.startTime - timing.start,
    requestMs: first.responseEnd - first.startTime,
    afterResponseMs: timing.end - first.responseEnd,
  };
}

/** One API call from the page (no cache), timed in the page: start of fetch to body parsed. */
async function roundTrip(page: Page, url: string): Promise<number> {
  return page.evaluate(async (u) => {
    const start = performance.now();
    const response = await fetch(u, { cache: "no-store", credentials: "same-origin" });
    await response.json();
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${u}`);
    return performance.now() - start;
  }, url);
}

export interface InteractionInput {
  pageUrl: string;
  webhookId: string;
  rounds: number;
  /** Performs the interaction (a click, a select) on the page. */
  actions: Record<string, (page: Page) => Promise<void>>;
  /** The API URL (path + query) the same data comes from after each action, given the page size. */
  apiFor: Record<string, (pageSize: number) => string>;
}

/**
 * Each round loads the page afresh (no client cache), then for each action: one API round trip,
 * the action timed until its rows show, another round trip. Per action: the median action time,
 * the median round trip (each round's two trips averaged), where the time went, and what the
 * action asked the server for.
 */
export async function measureInteraction(
  context: BrowserContext,
  input: InteractionInput,
): Promise<ActionMeasure[]> {
  const page = await context.newPage();
  await page.addInitScript(HYDRATION_WATCH);
  const times: Record<string, { action: number[]; trip: number[] }> = {};
  const phases: Record<string, Phases[]> = {};
  // What each action asked the server for: API calls, or React Server Component payloads (a navigation).
  const asked: Record<string, string[]> = {};
  let current: string | null = null;
  page.on("request", (request) => {
    if (current === null) return;
    const url = new URL(request.url());
    const kind = url.pathname.startsWith("/api/")
      ? "api"
      : request.headers()["rsc"] === "1" || url.searchParams.has("_rsc")
        ? "rsc"
        : null;
    if (kind) (asked[current] ??= []).push(`${kind} ${url.pathname}${url.search}`);
  });
  try {
    for (let round = 0; round < input.rounds; round++) {
      await gotoHydrated(page, input.pageUrl);
      const pageSize = await logRows(page).count();
      for (const [name, act] of Object.entries(input.actions)) {
        const url = input.apiFor[name]?.(pageSize);
        if (!url) throw new Error(`no API URL for ${name}`);
        const t = (times[name] ??= { action: [], trip: [] });
        const before = await roundTrip(page, url);
        await page.evaluate(ARM_IN_PAGE);
        current = name;
        await act(page);
        const timing = await actionDone(page, name);
        current = null;
        (phases[name] ??= []).push(await phasesOf(page, timing, url));
        const after = await roundTrip(page, url);
        t.action.push(timing.end - timing.start);
        t.trip.push((before + after) / 2);
      }
    }
  } finally {
    await page.close();
  }
  return Object.entries(times).map(([name, t]) => {
    const median_ = medianPhases(phases[name] ?? []);
    return {
      name,
      actionMs: median(t.action),
      tripMs: median(t.trip),
      madeRequest: median_ !== null,
      phases: median_,
      requests: asked[name] ?? [],
      samples: t,
    };
  });
}

/**
 * Puts a plain button beside the "Next page" link whose click swaps the table body for the next page's
 * rows with one `innerHTML` write: no React, no router, no request. Plain JavaScript, see ARM_IN_PAGE.
 */
const ADD_SWAP_BUTTON = `((html) => {
  ${FIND_LOG_TABLE}
  const body = logTable()?.querySelector("tbody");
  if (!body) throw new Error("no log table body on the page");
  const next = Array.from(document.querySelectorAll("a, button")).find((b) => (b.textContent || "").trim().startsWith("Next page"));
  if (!next) throw new Error("no Next page link on the page");
  const swap = document.createElement("button");
  swap.type = "button";
  swap.id = "bench-swap";
  swap.textContent = "Swap rows";
  swap.className = next.className;
  swap.addEventListener("click", () => { body.innerHTML = html; });
  next.after(swap);
})`;

/**
 * The interaction floor of this browser on this machine: the same watch as `measureInteraction`
 * (click to new rows), for a click that swaps in the next page's rows as plain DOM (captured from
 * the page itself). Whatever the console does, a click that brings rows cannot be faster than
 * this. Medians of the swap and of an API round trip made from the page in the same rounds.
 */
export async function measureInteractionFloor(
  context: BrowserContext,
  input: { pageUrl: string; webhookId: string; rounds: number },
): Promise<{ swapMs: number; tripMs: number; samples: { swaps: number[]; trips: number[] } }> {
  const page = await context.newPage();
  await page.addInitScript(HYDRATION_WATCH);
  const swaps: number[] = [];
  const trips: number[] = [];
  try {
    const secondPage = new URL(input.pageUrl);
    secondPage.searchParams.set("page", "2");
    await page.goto(secondPage.toString(), { waitUntil: "networkidle" });
    const nextRows = await logRows(page)
      .first()
      .evaluate((row) => row.parentElement?.innerHTML ?? "");
    const pageSize = await logRows(page).count();
    if (pageSize === 0) throw new Error("page 2 of the bench webhook has no rows");
    const url = `/api/webhooks/${input.webhookId}/logs?offset=${pageSize}&limit=${pageSize}`;
    for (let round = 0; round < input.rounds; round++) {
      await gotoHydrated(page, input.pageUrl);
      await page.evaluate(`${ADD_SWAP_BUTTON}(${JSON.stringify(nextRows)})`);
      const before = await roundTrip(page, url);
      await page.evaluate(ARM_IN_PAGE);
      await page.getByRole("button", { name: "Swap rows" }).click();
      const timing = await actionDone(page, "the plain DOM swap");
      const after = await roundTrip(page, url);
      swaps.push(timing.end - timing.start);
      trips.push((before + after) / 2);
    }
  } finally {
    await page.close();
  }
  return { swapMs: median(swaps), tripMs: median(trips), samples: { swaps, trips } };
}
