import type { Metadata } from "next";
import { BulkWatchForm } from "@/components/watch/bulk-watch-form";
import { requireSignedInPage } from "@/lib/server/session/redirect";
import { shownApplication, summaryOf } from "@/lib/server/session/page-application";

export const metadata: Metadata = { title: "Watch webhooks" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** `/watch[?app=]`: watch many webhooks at once, each checked with the hub before it is kept. */
export default async function WatchPage({ searchParams }: Props) {
  const data = await requireSignedInPage("/watch");
  const { app } = await searchParams;
  const shown = shownApplication(data, Array.isArray(app) ? app[0] : app);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Watch webhooks</h1>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          The console reads watched webhooks on its own and keeps their delivery history, so the Overview
          shows which are failing without opening each. The API names no webhook: give each a name, a
          customer&apos;s say. To keep watching, the console stores the application&apos;s key sealed on the
          server.
        </p>
      </div>
      <BulkWatchForm applications={data.applications.map(summaryOf)} initialApp={shown.id} />
    </div>
  );
}
