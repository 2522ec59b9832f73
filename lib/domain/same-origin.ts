/**
 * The rule that tells a browser's cross-site request from a same-origin one, by the headers
 * browsers set and pages cannot forge. Shared by the console (lib/server/http/same-origin.ts, which
 * knows its own origins) and the sandbox's admin routes; each says which origins are its own.
 */

/** Methods that change state: the ones the rule guards. */
export const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a browser says about where a request comes from. */
export interface RequestMarks {
  secFetchSite: string | null;
  origin: string | null;
  referer: string | null;
}

/** `Sec-Fetch-Site: cross-site` or `same-site` (a sibling subdomain is another origin). */
export function isCrossSiteFetchSite(site: string | null): boolean {
  return site === "cross-site" || site === "same-site";
}

/**
 * Why a request is not same-origin (`self` names the server: "this console"), or null when nothing says it is another origin's:
 * - `Sec-Fetch-Site: cross-site` or `same-site`;
 * - an `Origin` that is not ours, including `null` (sandboxed frames, data: URLs);
 * - no `Origin` but a `Referer` from another origin.
 * A request with none of these is not from a browser that could be tricked (browsers send
 * `Origin` on every POST/PUT/PATCH/DELETE): tests, curl.
 */
export function crossOriginReason(
  marks: RequestMarks,
  isOurOrigin: (origin: string) => boolean,
  self: string,
): string | null {
  if (isCrossSiteFetchSite(marks.secFetchSite)) return `the browser marked it ${marks.secFetchSite}`;
  if (marks.origin !== null)
    return isOurOrigin(marks.origin) ? null : `its Origin ${describe(marks.origin)} is not ${self}`;
  if (marks.referer) {
    let refererOrigin: string;
    try {
      refererOrigin = new URL(marks.referer).origin;
    } catch {
      return "its Referer is not a URL";
    }
    return isOurOrigin(refererOrigin) ? null : `its Referer ${describe(refererOrigin)} is not ${self}`;
  }
  return null;
}

function describe(origin: string): string {
  return JSON.stringify(origin.slice(0, 100));
}

/** The media type of a Content-Type header is exactly `application/json` (a browser cannot send it cross-site without asking first). */
export function isJsonContentType(header: string | null | undefined): boolean {
  if (!header) return false;
  return header.split(";")[0]!.trim().toLowerCase() === "application/json";
}
