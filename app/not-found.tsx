import Link from "next/link";
import { connection } from "next/server";

/**
 * Rendered per request, not prerendered: the page CSP (proxy.ts) carries a per-request nonce,
 * and a prerendered page's scripts would have none.
 */
export default async function NotFound() {
  await connection();
  return (
    <main id="main" className="mx-auto max-w-xl space-y-3 px-4 py-16">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        There is no page at this address in the Webhook Console.
      </p>
      <Link href="/webhooks" className="btn-link">
        Go to webhooks
      </Link>
    </main>
  );
}
