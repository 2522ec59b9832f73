import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { arrivedAt, noteArrivals } from "@/lib/server/http/arrival";

describe("arrivedAt", () => {
  it("is when the request reached the server, also in a handler that got the event loop late", async () => {
    noteArrivals();
    const seen: Array<{ arrived: number; handled: number }> = [];
    const server = http.createServer(async (_req, res) => {
      // The handler's own work starts after the event loop was busy elsewhere.
      await new Promise((resolve) => setTimeout(resolve, 30));
      seen.push({ arrived: arrivedAt(), handled: performance.now() });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const sent = performance.now();
      await Promise.all([fetch(url), fetch(url), fetch(url)].map(async (r) => (await r).arrayBuffer()));
      await (await fetch(url)).arrayBuffer();
      expect(seen).toHaveLength(4);
      for (const { arrived, handled } of seen) {
        expect(arrived).toBeGreaterThanOrEqual(sent);
        expect(handled - arrived).toBeGreaterThanOrEqual(25);
      }
      // Outside a request it is now.
      const before = performance.now();
      expect(arrivedAt()).toBeGreaterThanOrEqual(before);
    } finally {
      server.close();
    }
  });
});
