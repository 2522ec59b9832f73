/**
 * What the console remembers in this browser: the webhooks opened recently (per application,
 * by its id), the last channel used to send a test message, and which alert incidents it has
 * notified and which the person dismissed from the banner. Never the API key (that lives only in the sealed,
 * httpOnly session cookie). Everything read here is treated as untrusted input.
 */
import { useSyncExternalStore } from "react";
import { isUuidShape } from "@/lib/domain/api-limits";
import { NOTIFIED_MAX } from "@/lib/domain/alerts/incidents";

const RECENT_PREFIX = "hub-console:recent-webhooks:";
const CHANNEL_KEY = "hub-console:last-channel";
const NOTIFIED_KEY = "hub-console:notified-incidents";
const DISMISSED_KEY = "hub-console:dismissed-incidents";
export const RECENT_MAX = 8;

export interface RecentWebhook {
  id: string;
  endpoint: string;
  eventType: string;
  openedAt: number;
}

export interface LastChannel {
  channelKind: string;
  from: string;
}

const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; value: unknown }>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (
      event.key === null ||
      event.key.startsWith(RECENT_PREFIX) ||
      event.key === CHANNEL_KEY ||
      event.key === DISMISSED_KEY
    )
      listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: remembering is a convenience, not a requirement.
  }
  for (const listener of listeners) listener();
}

/** Parses once per distinct raw value, so useSyncExternalStore gets a stable snapshot. */
function readParsed<T>(key: string, parse: (raw: unknown) => T): T {
  const raw = readRaw(key);
  const hit = cache.get(key);
  if (hit && hit.raw === raw) return hit.value as T;
  let json: unknown = null;
  try {
    json = raw === null ? null : JSON.parse(raw);
  } catch {
    json = null;
  }
  const value = parse(json);
  cache.set(key, { raw, value });
  return value;
}

const NO_RECENT: RecentWebhook[] = [];

export function parseRecent(json: unknown): RecentWebhook[] {
  if (!Array.isArray(json)) return NO_RECENT;
  const items: RecentWebhook[] = [];
  for (const item of json as unknown[]) {
    if (!item || typeof item !== "object") continue;
    const { id, endpoint, eventType, openedAt } = item as Record<string, unknown>;
    if (typeof id !== "string" || !isUuidShape(id)) continue;
    items.push({
      id,
      endpoint: typeof endpoint === "string" ? endpoint.slice(0, 2000) : "",
      eventType: typeof eventType === "string" ? eventType.slice(0, 100) : "",
      openedAt: typeof openedAt === "number" ? openedAt : 0,
    });
  }
  return items.slice(0, RECENT_MAX);
}

export function parseLastChannel(json: unknown): LastChannel | null {
  if (!json || typeof json !== "object") return null;
  const { channelKind, from } = json as Record<string, unknown>;
  if (typeof channelKind !== "string" || typeof from !== "string") return null;
  return { channelKind: channelKind.slice(0, 32), from: from.slice(0, 36) };
}

function readRecentWebhooks(appId: string): RecentWebhook[] {
  return readParsed(RECENT_PREFIX + appId, parseRecent);
}

export function rememberWebhook(appId: string, webhook: Omit<RecentWebhook, "openedAt">): void {
  const rest = readRecentWebhooks(appId).filter((item) => item.id !== webhook.id);
  write(RECENT_PREFIX + appId, [{ ...webhook, openedAt: Date.now() }, ...rest].slice(0, RECENT_MAX));
}

export function forgetRecentWebhooks(appId: string): void {
  write(RECENT_PREFIX + appId, []);
}

function readLastChannel(): LastChannel | null {
  return readParsed(CHANNEL_KEY, parseLastChannel);
}

export function rememberChannel(channel: LastChannel): void {
  write(CHANNEL_KEY, channel);
}

/** An application's recent webhooks: empty on the server and during hydration; the stored list after mount. */
export function useRecentWebhooks(appId: string): RecentWebhook[] {
  return useSyncExternalStore(
    subscribe,
    () => readRecentWebhooks(appId),
    () => NO_RECENT,
  );
}

export function useLastChannel(): LastChannel | null {
  return useSyncExternalStore(subscribe, readLastChannel, () => null);
}

/** A list of incident entries as stored: null when absent or not a list; entries not strings dropped. */
export function parseIncidentIds(json: unknown): string[] | null {
  if (!Array.isArray(json)) return null;
  return (json as unknown[])
    .filter((item): item is string => typeof item === "string" && item.length <= 200)
    .slice(-NOTIFIED_MAX);
}

/** The incidents this browser has notified (see notificationsDue); null when it has recorded none yet. */
export function readNotifiedIncidents(): string[] | null {
  return readParsed(NOTIFIED_KEY, parseIncidentIds);
}

export function rememberNotifiedIncidents(entries: string[]): void {
  write(NOTIFIED_KEY, entries);
}

const NO_IDS: string[] = [];
const readDismissed = () => readParsed(DISMISSED_KEY, parseIncidentIds) ?? NO_IDS;

/** The firing incidents the person dismissed the banner for. */
export function useDismissedIncidents(): string[] {
  return useSyncExternalStore(subscribe, readDismissed, () => NO_IDS);
}

export function dismissIncidents(ids: string[]): void {
  write(DISMISSED_KEY, ids.slice(-NOTIFIED_MAX));
}
