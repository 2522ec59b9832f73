import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DemoWebhooks } from "@/components/webhooks/demo-webhooks";
import { OpenWebhookForm } from "@/components/webhooks/open-webhook-form";
import { RecentWebhooks } from "@/components/webhooks/recent-webhooks";
import { parseApplicationId } from "@/lib/domain/applications";
import { demoOf } from "@/lib/domain/sandbox-demo";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { requireSignedInPage } from "@/lib/server/session/redirect";
import { shownApplication } from "@/lib/server/session/page-application";

export const metadata: Metadata = { title: "Webhooks" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** `/webhooks[?app=]`: open a webhook of the application shown (the current one, or the one `?app=` names). */
export default async function WebhooksPage({ searchParams }: Props) {
  const { app: appParam } = await searchParams;
  const data = await requireSignedInPage(
    appParam ? `/webhooks?app=${encodeURIComponent(String(appParam))}` : "/webhooks",
  );
  const named = parseApplicationId(appParam);
  if (appParam !== undefined && !data.applications.some((app) => app.id === named)) notFound();
  const shown = shownApplication(data, named);
  const demo = await getSandboxDemo();

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          Open a webhook of <strong className="font-semibold">{shown.name}</strong> to see every delivery the
          hub made to its endpoint, why the failed ones failed, and to send a test message.
        </p>
      </div>
      <OpenWebhookForm appId={shown.id} />
      <RecentWebhooks appId={shown.id} />
      {demo ? <DemoWebhooks {...demoOf(demo, shown.id)} /> : null}
    </div>
  );
}
