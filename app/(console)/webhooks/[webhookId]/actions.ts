"use server";

import { refresh } from "next/cache";

/**
 * Auto-refresh: the page answers again, in this action's answer. Its hub reads are polls
 * (lib/server/http/auto-refresh.ts): viewers of one webhook share a read a few seconds old.
 */
export async function refreshPage(): Promise<void> {
  refresh();
}
