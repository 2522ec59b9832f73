import type { Metadata } from "next";
import Link from "next/link";
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { SearchParams } from "nuqs/server";
import { OverviewView } from "@/components/overview/overview-view";
import { overviewQueryOptions } from "@/components/overview/overview-query";
import { loadOverviewSearchParams, overviewHref } from "@/components/overview/search-params";
import { Notice } from "@/components/ui/notice";
import { QueryProvider } from "@/components/ui/query-provider";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { storeAccess } from "@/lib/server/watch/store-access";
import { overviewAnswer } from "@/app/api/watches/overview-answer";

export const metadata: Metadata = { title: "Overview" };

interface Props {
  searchParams: Promise<SearchParams>;
}

const DONE: Record<string, string> = {
  "handed-over":
    "The new key was handed over: it reads the same webhooks, and their watches, names and history are kept.",
};

/**
 * `/overview?failing=&app=&q=&page=`: the watched webhooks of the session's applications, worst
 * first, filtered and paged as the URL says, read from the watch's store (never the hub). The
 * server renders the page's rows; the browser then reads them again on its own.
 */
export default async function OverviewPage({ searchParams }: Props) {
  const query = await searchParams;
  const view = loadOverviewSearchParams(query);
  const data = await requireSignedInPage(overviewHref("/overview", view));
  const { allowed } = await storeAccess(data.applications);
  // Every key of the session is rejected: as when the hub answers 401, sign in again.
  if (allowed.length === 0) redirectToSignIn("key_rejected");
  const queryClient = new QueryClient();
  // A failed read (the store is down, say) is not cached: the browser's query reads again and says why.
  await queryClient.prefetchQuery({
    ...overviewQueryOptions(view),
    queryFn: () => overviewAnswer(data, allowed, view),
  });
  const done = typeof query.done === "string" ? DONE[query.done] : undefined;

  return (
    <div className="space-y-4">
      <div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-xl font-semibold tracking-tight">Overview</h1>
          <Link href="/watch" className="btn btn-secondary">
            Watch webhooks
          </Link>
        </div>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          Every watched webhook of your applications, worst first, as the watcher last read it.
        </p>
      </div>
      {done ? (
        <Notice tone="success" role="status">
          <p>{done}</p>
        </Notice>
      ) : null}
      <QueryProvider>
        <HydrationBoundary state={dehydrate(queryClient)}>
          <NuqsAdapter>
            <OverviewView />
          </NuqsAdapter>
        </HydrationBoundary>
      </QueryProvider>
    </div>
  );
}
