/**
 * TEST ONLY (vitest globalSetup of the node project). One PostgreSQL cluster for the whole run:
 * starting a cluster costs seconds, and every test gets a fresh database on it anyway
 * (watch-databases.ts), so the files share the server rather than each starting its own.
 */
import type { TestProject } from "vitest/node";
import { postgresServer } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL cluster (its `postgres` database). */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Two files at a time each keep their stores' pools open until the file ends.
  const server = await postgresServer({ maxConnections: 300 });
  project.provide("postgresUrl", server.url);
  return () => server.remove();
}
