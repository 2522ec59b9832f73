// Stands in for the `server-only` package in unit tests (see vitest.config.mts).
export {};
