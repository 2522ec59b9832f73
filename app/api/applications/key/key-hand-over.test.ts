/**
 * Replacing a key on the Applications page when the watch store holds the application's old key
 * (rejected by the hub, or just older): what would move is listed first, then the new key is
 * handed over to its watches, after the hub shows it reads the same webhooks; a key that reads
 * others is refused and nothing changes.
 * Real (embedded, in-memory) store, fake hub recording what reaches it.
 */
import { keyStates, listWatches, markKeyRejected, openKey } from "@/lib/server/watch/watches";
import { withStore, sharedStoreContext } from "@/lib/server/store/context";
import { describe, expect, it } from "vitest";
import { applicationId } from "@/lib/server/session/key-hash";

import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { A, B, FIRST, OTHER, ROTATED, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as keyRoute from "@/app/api/applications/key/route";
import * as applicationsRoute from "@/app/api/applications/route";
import * as watchesRoute from "@/app/api/watches/route";

const hub = watchRouteHub();

const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0];

/** Signed in with FIRST, A and B watched as Acme and Bravo; then the hub rotates FIRST to ROTATED. */
async function watchedThenRotated(): Promise<string> {
  const cookie = await signedInCookie(FIRST);
  for (const [webhookId, name] of [
    [A, "Acme"],
    [B, "Bravo"],
  ]) {
    const response = await watchesRoute.POST(
      request("POST", "/api/watches", { body: { webhookId, name }, cookie }),
    );
    expect(response.status).toBe(201);
  }
  hub.reads = { [ROTATED]: [A, B], [SECOND]: [OTHER] };
  return cookie;
}

function replace(cookie: string, apiKey: string, app = applicationId(FIRST), keepDestinations?: string[]) {
  return keyRoute.POST(
    request("POST", "/api/applications/key", { body: { app, apiKey, keepDestinations }, cookie }),
  );
}

async function watchesOf(appIds: string[]) {
  const store = await sharedStoreContext();
  return (await listWatches(store, appIds)).map((watch) => [watch.name, watch.appId]);
}

describe("replacing a watched application's key", () => {
  it("hands the new key to a rejected key's watches: names kept, the new key stored and polled", async () => {
    const cookie = await watchedThenRotated();
    const store = await sharedStoreContext();
    await markKeyRejected(store, applicationId(FIRST), "The Messaging Hub rejected the key (HTTP 401).");
    hub.upstream.requests.length = 0;

    // First what would move is listed, and nothing changes.
    const listing = await replace(cookie, ` ${ROTATED} `);
    expect(listing.status).toBe(200);
    expect(listing.headers.get("set-cookie")).toBeNull();
    const plan = ((await listing.json()) as { handOver: HandOverPlan }).handOver;
    expect(plan.watches.map((watch) => watch.name)).toEqual(["Acme", "Bravo"]);
    // The key checked, then each watched webhook read with it.
    expect(hub.upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([ROTATED, ROTATED, ROTATED]);
    expect(hub.upstream.requests.slice(1).map((r) => r.url?.split("/").at(-1))).toEqual([A, B]);
    expect(await watchesOf([FIRST].map(applicationId))).toEqual([
      ["Acme", applicationId(FIRST)],
      ["Bravo", applicationId(FIRST)],
    ]);

    const response = await replace(cookie, ` ${ROTATED} `, applicationId(FIRST), []);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toContain(ROTATED);
    expect((JSON.parse(body) as { watchesHandedOver: number }).watchesHandedOver).toBe(2);

    const all = [FIRST, ROTATED].map(applicationId);
    expect(await watchesOf(all)).toEqual([
      ["Acme", applicationId(ROTATED)],
      ["Bravo", applicationId(ROTATED)],
    ]);
    expect(await keyStates(store, all)).toEqual([
      { appId: applicationId(ROTATED), rejected: false, rejectedAt: null },
    ]);
    expect(await openKey(store, applicationId(ROTATED))).toBe(ROTATED);
    const listed = await applicationsRoute.GET(
      request("GET", "/api/applications", { cookie: cookieOf(response)! }),
    );
    expect(((await listed.json()) as { current: string }).current).toBe(applicationId(ROTATED));
  });

  it("hands over an older key the hub has not rejected yet", async () => {
    const cookie = await watchedThenRotated();
    hub.reads[FIRST] = [A, B];
    const response = await replace(cookie, ROTATED, applicationId(FIRST), []);
    expect(response.status).toBe(200);
    expect(await watchesOf([FIRST, ROTATED].map(applicationId))).toEqual([
      ["Acme", applicationId(ROTATED)],
      ["Bravo", applicationId(ROTATED)],
    ]);
  });

  it("refuses a key the hub rejects by the field's label, and changes nothing", async () => {
    const cookie = await watchedThenRotated();
    const response = await replace(cookie, "unknown-key-0000000000000000");
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.apiKey?.[0]).toMatch(
      /^New API key: the Messaging Hub rejected this key \(HTTP 401\).*Paste the application's current key\./,
    );
    expect(await watchesOf([FIRST].map(applicationId))).toEqual([
      ["Acme", applicationId(FIRST)],
      ["Bravo", applicationId(FIRST)],
    ]);
  });

  it("refuses a key that does not read the same webhooks, naming the field, and changes nothing", async () => {
    const cookie = await watchedThenRotated();
    hub.reads[SECOND] = [A, OTHER];
    const response = await replace(cookie, SECOND);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.fields?.apiKey?.[0]).toMatch(
      new RegExp(
        `^New API key: this key does not read the watched webhook "Bravo" \\(${B}\\).*Paste the key`,
      ),
    );
    expect(response.headers.get("set-cookie")).toBeNull();
    const store = await sharedStoreContext();
    expect(await watchesOf([FIRST, SECOND].map(applicationId))).toEqual([
      ["Acme", applicationId(FIRST)],
      ["Bravo", applicationId(FIRST)],
    ]);
    expect(await openKey(store, applicationId(FIRST))).toBe(FIRST);
    expect(await keyStates(store, [applicationId(SECOND)])).toEqual([]);
  });

  it("replaces the key of an application that watches nothing without reading webhooks or storing it", async () => {
    const cookie = await signedInCookie(FIRST);
    hub.reads = { [ROTATED]: [A, B] };
    const response = await replace(cookie, ROTATED);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { watchesHandedOver: number }).watchesHandedOver).toBe(0);
    expect(hub.upstream.requests).toHaveLength(1);
    expect(await withStore((ctx) => keyStates(ctx, [FIRST, ROTATED].map(applicationId)))).toEqual([]);
  });
});
