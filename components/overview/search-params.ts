import { createLoader, createSerializer, parseAsBoolean, parseAsInteger, parseAsString } from "nuqs/server";

/**
 * The overview's view as its URL holds it: `?failing=true&app=<id>&q=<text>&page=2`. One set of
 * parsers for the page (server), the route (`GET /api/watches`) and the filters (browser). `app` is
 * the console's usual `?app=`: with it, the header names that application too.
 */
export const overviewSearchParams = {
  failing: parseAsBoolean.withDefault(false),
  app: parseAsString,
  q: parseAsString.withDefault(""),
  page: parseAsInteger.withDefault(1),
};

export const loadOverviewSearchParams = createLoader(overviewSearchParams);

/** The overview's address for a view (defaults left out). */
export const overviewHref = createSerializer(overviewSearchParams);
