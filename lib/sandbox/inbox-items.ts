/**
 * What the sandbox's alert inbox keeps: each post or email that arrived at one of its stand-ins,
 * in memory, the newest INBOX_MAX.
 */
import { randomUUID } from "node:crypto";

/** Most items kept; older ones are dropped. */
export const INBOX_MAX = 200;

/** Longest body kept per item. */
const BODY_MAX = 64 * 1024;

export type InboxChannel = "slack" | "webhook" | "email" | "pagerduty" | "teams" | "discord";

export interface InboxItem {
  id: string;
  channel: InboxChannel;
  receivedAt: string;
  /** Slack's `text`, the JSON's `type` and title, or the email's subject. */
  title: string;
  /** Signed webhooks: whether the signature verified; null for the others. */
  verified: boolean | null;
  /** Why the signature did not verify. */
  problem: string | null;
  /** webhook-id, the email's Message-ID, PagerDuty's dedup_key. */
  messageId: string | null;
  /** Email only: the envelope. */
  from: string | null;
  to: string[];
  body: string;
}

export class AlertInbox {
  private items: InboxItem[] = [];

  add(item: Omit<InboxItem, "id" | "receivedAt" | "body"> & { body: string }): InboxItem {
    const stored = {
      id: randomUUID(),
      receivedAt: new Date().toISOString(),
      ...item,
      body: item.body.slice(0, BODY_MAX),
    };
    this.items = [stored, ...this.items].slice(0, INBOX_MAX);
    return stored;
  }

  list(): InboxItem[] {
    return [...this.items];
  }

  clear(): void {
    this.items = [];
  }
}
