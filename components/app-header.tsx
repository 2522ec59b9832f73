import { HoverPrefetchLink } from "@/components/ui/hover-prefetch-link";
import type { ApplicationSummary } from "@/lib/domain/applications";
import { SignOutButton } from "@/components/sign-out-button";
import { ApplicationSwitcher } from "@/components/applications/application-switcher";
import { FindAcrossBox } from "@/components/find/find-across-box";

interface Props {
  /** The session's applications (no keys), and the one this page shows. */
  applications: ApplicationSummary[];
  shown: ApplicationSummary | null;
  /** Where "Webhooks" leads: the shown application's list. */
  webhooksHref: string;
  sandboxMode: boolean;
}

const NAV_LINK =
  "rounded-sm text-zinc-700 hover:text-zinc-950 hover:underline dark:text-zinc-300 dark:hover:text-white";

/** The bar on every signed-in page: where you are, which application (and key) you use, and "Sign out". */
export function AppHeader({ applications, shown, webhooksHref, sandboxMode }: Props) {
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-2.5 sm:gap-x-4 sm:px-6">
        <HoverPrefetchLink href={webhooksHref} className="rounded-sm text-base font-semibold tracking-tight">
          Webhook Console
        </HoverPrefetchLink>
        {/* On a phone: the title and Sign out on the first line, the rest on the second. */}
        <div className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 max-sm:order-1 sm:contents">
          {sandboxMode ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
              Sandbox
            </span>
          ) : null}
          <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <HoverPrefetchLink
              href={webhooksHref}
              className="rounded-sm text-zinc-700 hover:text-zinc-950 hover:underline dark:text-zinc-300 dark:hover:text-white"
            >
              Webhooks
            </HoverPrefetchLink>
            <HoverPrefetchLink href="/overview" className={NAV_LINK}>
              Overview
            </HoverPrefetchLink>
            <HoverPrefetchLink href="/watch" className={NAV_LINK}>
              Watch
            </HoverPrefetchLink>
            <HoverPrefetchLink href="/alerts" className={NAV_LINK}>
              Alerts
            </HoverPrefetchLink>
            {/* A full page load: the Applications page may show another application than this page (the header is the layout's). */}
            <a
              href="/applications"
              className="rounded-sm text-zinc-700 hover:text-zinc-950 hover:underline dark:text-zinc-300 dark:hover:text-white"
            >
              Applications
            </a>
          </nav>
          <FindAcrossBox />
          <div className="ml-auto">
            {shown ? (
              <ApplicationSwitcher applications={applications} shown={shown} />
            ) : (
              <span className="text-xs text-zinc-600 dark:text-zinc-400">Signed in</span>
            )}
          </div>
        </div>
        <div className="max-sm:ml-auto">
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
