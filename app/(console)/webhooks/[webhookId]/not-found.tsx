import Link from "next/link";

export default function WebhookNotFound() {
  return (
    <div className="mx-auto max-w-2xl space-y-3">
      <h1 className="text-xl font-semibold">Webhook not found</h1>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        The Messaging Hub has no webhook with this ID for the API key you signed in with. Check the ID for
        typos. A key sees only the webhooks of its own application: if the webhook belongs to another
        application, sign out and sign in with that application&apos;s key.
      </p>
      <div className="flex flex-wrap gap-4 text-sm">
        <Link href="/webhooks" className="btn-link">
          Open another webhook
        </Link>
        <Link href="/login" className="btn-link">
          Sign in with another key
        </Link>
      </div>
    </div>
  );
}
