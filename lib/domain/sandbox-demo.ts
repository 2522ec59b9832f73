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

/** One demo application without its key: safe to hand to client components. */
export interface SandboxDemoApplication {
  /** The console's id of its key (as `?app=` carries it). */
  appId: string;
  name: string;
  channels: DemoChannel[];
  webhooks: DemoWebhook[];
}

/** The demo data without keys: the first demo application's channels and webhooks, and every demo application. */
export interface SandboxDemo {
  channels: DemoChannel[];
  webhooks: DemoWebhook[];
  applications: SandboxDemoApplication[];
}

/** The demo data to show on a page of application `appId`: its own when it is a demo application, else the first one's. */
export function demoOf(
  demo: SandboxDemo,
  appId: string,
): { appId: string | null; channels: DemoChannel[]; webhooks: DemoWebhook[] } {
  const own = demo.applications.find((app) => app.appId === appId);
  return own ?? { appId: null, channels: demo.channels, webhooks: demo.webhooks };
}
