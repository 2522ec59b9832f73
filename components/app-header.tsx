import Link from "next/link";
import { SignOutButton } from "@/components/sign-out-button";

/** The bar on every signed-in page: where you are, which key you use, and "Sign out". */
export function AppHeader({ keyHint, sandboxMode }: { keyHint: string | null; sandboxMode: boolean }) {
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-2.5 sm:gap-x-4 sm:px-6">
        <Link href="/webhooks" className="rounded-sm text-base font-semibold tracking-tight">
          Webhook Console
        </Link>
        {/* On a phone: the title and Sign out on the first line, the rest on the second. */}
        <div className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 max-sm:order-1 sm:contents">
          {sandboxMode ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
              Sandbox
            </span>
          ) : null}
          <nav aria-label="Main" className="text-sm">
            <Link
              href="/webhooks"
              className="rounded-sm text-zinc-700 hover:text-zinc-950 hover:underline dark:text-zinc-300 dark:hover:text-white"
            >
              Webhooks
            </Link>
          </nav>
          <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
            {keyHint ? (
              <>
                <span className="max-sm:sr-only">Signed in with </span>key{" "}
                <span className="font-mono">…{keyHint}</span>
              </>
            ) : (
              "Signed in"
            )}
          </span>
        </div>
        <div className="max-sm:ml-auto">
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
