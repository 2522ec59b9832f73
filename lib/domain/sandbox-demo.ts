/** The sandbox's demo data as the console shows it: links to the demo webhooks, the send form's prefill. */
export interface DemoChannel {
  id: string;
  kind: string;
}

export interface DemoWebhook {
  id: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  label: string;
}

/** The demo data without its key: safe to hand to client components. */
export interface SandboxDemo {
  channels: DemoChannel[];
  webhooks: DemoWebhook[];
}
