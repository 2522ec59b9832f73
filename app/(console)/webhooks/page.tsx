import type { Metadata } from "next";
import { DemoWebhooks } from "@/components/webhooks/demo-webhooks";
import { OpenWebhookForm } from "@/components/webhooks/open-webhook-form";
import { RecentWebhooks } from "@/components/webhooks/recent-webhooks";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { requireSignedInPage } from "@/lib/server/session/redirect";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireSignedInPage("/webhooks");
  const demo = await getSandboxDemo();

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          Open a webhook to see every delivery the hub made to its endpoint, why the failed ones failed, and
          to send a test message.
        </p>
      </div>
      <OpenWebhookForm />
      <RecentWebhooks />
      {demo ? <DemoWebhooks webhooks={demo.webhooks} /> : null}
    </div>
  );
}
