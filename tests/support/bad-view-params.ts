/**
 * Values a pasted link may carry that the webhook page's view cannot use, a few of each parameter
 * it reads: each alone is search-params.test.ts's, one link with one of each is
 * tests/e2e/filters-and-url.spec.ts's.
 */
export const BAD_VIEW_PARAMS = [
  ["code", "abc"],
  ["code", "-1"],
  ["since", "yesterday"],
  ["until", "2026-13-45T00:00"],
  ["contains", "x".repeat(201)],
  ["status", "Bogus"],
  ["page", "-1"],
  ["page", "abc"],
  ["limit", "7"],
  ["limit", "500"],
  ["log", "not-a-log-id"],
  ["cap", "0"],
  ["issue", "500"],
  ["health", "2d"],
] as const;
