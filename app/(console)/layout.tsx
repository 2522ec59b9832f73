import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { IncidentBannerSlot } from "@/components/alerts/incident-banner-slot";
import { serverConfig } from "@/lib/server/config";
import { getSession } from "@/lib/server/session/session";
import {
  pageAddress,
  shownApplication,
  summaryOf,
  webhooksHref,
} from "@/lib/server/session/page-application";

/**
 * The signed-in part of the console. Each page checks the session itself (a layout is not a
 * boundary). The header names the application the page shows (its `?app=`, else the current
 * one); below it, the banner of the alerts firing. A layout is not rendered again on a
 * client-side navigation: every link of the console stays within the application shown, and
 * moving to another is a full page load (the switcher's forms, "Look in my other applications").
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getSession();
  const data = session.status === "signed_in" ? session.data : null;
  const shown = data ? shownApplication(data, (await pageAddress())?.searchParams.get("app")) : null;
  return (
    <>
      <AppHeader
        applications={data ? data.applications.map(summaryOf) : []}
        shown={shown ? summaryOf(shown) : null}
        webhooksHref={data && shown ? webhooksHref(data, shown.id) : "/webhooks"}
        sandboxMode={serverConfig().sandboxMode}
      />
      {data ? <IncidentBannerSlot /> : null}
      <main id="main" className="mx-auto max-w-[100rem] px-4 py-5 sm:px-6">
        {children}
      </main>
    </>
  );
}
