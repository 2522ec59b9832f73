import type { Metadata } from "next";
import { DeliveryLog } from "@/components/alerts/delivery-log";
import { DestinationForm } from "@/components/alerts/destination-form";
import { DestinationList } from "@/components/alerts/destination-list";
import { IncidentsSection } from "@/components/alerts/incidents-section";
import { serverConfig } from "@/lib/server/config";
import { requireSignedInPage } from "@/lib/server/session/redirect";
import { shownApplication } from "@/lib/server/session/page-application";
import { RulesForm } from "@/components/alerts/rules-form";
import { MaintenanceSection } from "@/components/maintenance/maintenance-section";
import { QueryProvider } from "@/components/ui/query-provider";

export const metadata: Metadata = { title: "Alerts" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * `/alerts[?app=]`: the incidents firing and resolved lately (every application of the session),
 * where the application's alerts go (Slack, a signed webhook, email, PagerDuty, Teams, Discord),
 * its rules and maintenance windows, and how each delivery went.
 */
export default async function AlertsPage({ searchParams }: Props) {
  const data = await requireSignedInPage("/alerts");
  const { app } = await searchParams;
  const shown = shownApplication(data, Array.isArray(app) ? app[0] : app);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Alerts</h1>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          Where the alerts of {shown.name} go when its watched webhooks start failing, and how each delivery
          went. Each alert says what is wrong, since when, the likely cause and what the customer must fix.
          Addresses and secrets are stored sealed and shown masked.
        </p>
      </div>
      <QueryProvider>
        <IncidentsSection />
        <DestinationList />
        <DestinationForm sandboxInbox={serverConfig().alerts.sandboxInbox} />
        <RulesForm />
        <MaintenanceSection webhookId={null} />
        <DeliveryLog />
      </QueryProvider>
    </div>
  );
}
