import { describe, expect, it } from "vitest";
import {
  compressedSizes,
  countBodyRows,
  medianPhases,
  sameRequest,
  scriptsNamedIn,
  splitFirstLoad,
} from "./browser";
import { failedCount, FAILED_SHARE } from "./fill";
import { parseCpuMs, parseStatusBytes } from "./servers";

describe("countBodyRows", () => {
  it("counts rows of table bodies only, not header rows", () => {
    const html =
      '<table><thead><tr><th>Status</th></tr></thead><tbody><tr class="a"><td>1</td></tr><tr><td>2</td></tr></tbody></table>' +
      "<table><tbody>\n<tr>\n<td>3</td></tr></tbody></table>";
    expect(countBodyRows(html)).toBe(3);
  });

  it("does not take <track> or <tref> for rows, and finds none without a tbody", () => {
    expect(countBodyRows("<tbody><track></track></tbody>")).toBe(0);
    expect(countBodyRows("<table><tr><td>x</td></tr></table>")).toBe(0);
  });
});

describe("compressedSizes", () => {
  it("compresses repetitive text well with both codecs", () => {
    const body = Buffer.from("console.log('hello');\n".repeat(1000));
    const sizes = compressedSizes(body);
    expect(sizes.gzip).toBeLessThan(body.length / 20);
    expect(sizes.brotli).toBeLessThan(sizes.gzip);
  });
});

describe("failedCount", () => {
  it("matches the share of failed outcomes over whole cycles and counts partial cycles exactly", () => {
    expect(failedCount(1_000_000)).toBe(1_000_000 * FAILED_SHARE);
    expect(failedCount(0)).toBe(0);
    expect(failedCount(1)).toBe(0);
    expect(failedCount(3)).toBe(1);
  });
});

describe("parseStatusBytes", () => {
  const status = "Name:\tnode\nVmPeak:\t 1000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t 153600 kB\n";

  it("reads the peak and the current resident set size in bytes", () => {
    expect(parseStatusBytes(status, "VmHWM")).toBe(204800 * 1024);
    expect(parseStatusBytes(status, "VmRSS")).toBe(153600 * 1024);
  });

  it("is null for a process without memory figures (a kernel thread)", () => {
    expect(parseStatusBytes("Name:\tkthreadd\n", "VmRSS")).toBeNull();
  });
});

describe("medianPhases", () => {
  it("takes the median of each phase over the rounds that made a request", () => {
    const none = { beforeRequestMs: null, requestMs: null, afterResponseMs: null };
    expect(
      medianPhases([
        { beforeRequestMs: 10, requestMs: 20, afterResponseMs: 5 },
        none,
        { beforeRequestMs: 30, requestMs: 10, afterResponseMs: 7 },
        { beforeRequestMs: 20, requestMs: 40, afterResponseMs: 6 },
      ]),
    ).toEqual({ beforeRequestMs: 20, requestMs: 20, afterResponseMs: 6 });
  });

  it("is null when no round made a request (the rows were already there)", () => {
    expect(medianPhases([{ beforeRequestMs: null, requestMs: null, afterResponseMs: null }])).toBeNull();
    expect(medianPhases([])).toBeNull();
  });
});

describe("parseCpuMs", () => {
  it("adds utime and stime (fields 14 and 15) at 100 ticks per second, even when the name has spaces", () => {
    const stat =
      "1234 (next-server (v16)) S 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 100 1000 100";
    expect(parseCpuMs(stat)).toBe(3000);
  });
});

describe("sameRequest", () => {
  it("matches the same path and parameters in any order, absolute or relative", () => {
    expect(
      sameRequest(
        "http://127.0.0.1:3300/api/webhooks/x/logs?offset=20&limit=20",
        "/api/webhooks/x/logs?limit=20&offset=20",
      ),
    ).toBe(true);
    expect(
      sameRequest("/api/webhooks/x/logs?offset=40&limit=20", "/api/webhooks/x/logs?offset=20&limit=20"),
    ).toBe(false);
    expect(
      sameRequest(
        "/api/webhooks/x/logs?offset=0&limit=20&status=Failed",
        "/api/webhooks/x/logs?offset=0&limit=20",
      ),
    ).toBe(false);
    expect(sameRequest("/api/webhooks/y/logs?offset=0", "/api/webhooks/x/logs?offset=0")).toBe(false);
  });
});

describe("first-load split", () => {
  const base = "http://127.0.0.1:3340/webhooks/x";
  it("finds the scripts the HTML names, by src and by script preload, not other links", () => {
    const html =
      '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>' +
      '<link rel="stylesheet" href="/_next/static/chunks/s.css"/><link rel="preload" as="font" href="/f.woff2"/>' +
      '<script src="/_next/static/chunks/b.js" async=""></script><script>self.__next_f=[]</script>';
    expect([...scriptsNamedIn(html, base)].sort()).toEqual([
      "/_next/static/chunks/a.js",
      "/_next/static/chunks/b.js",
    ]);
  });
  it("counts a script as first-load when the HTML names it or it was asked for before hydration", () => {
    const script = (url: string, requestedAt: number | null) => ({
      url,
      raw: 1,
      gzip: 1,
      brotli: 1,
      requestedAt,
    });
    const { firstLoad, later } = splitFirstLoad(
      [
        script("/named.js", 900),
        script("/early.js", 100),
        script("/late.js", 600),
        script("/unknown.js", null),
      ],
      new Set(["/named.js"]),
      500,
    );
    expect(firstLoad.map((s) => s.url)).toEqual(["/named.js", "/early.js", "/unknown.js"]);
    expect(later.map((s) => s.url)).toEqual(["/late.js"]);
  });
});
