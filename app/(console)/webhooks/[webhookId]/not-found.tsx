import Link from "next/link";
import { parseApplicationId } from "@/lib/domain/applications";
import { notAnIdMessage } from "@/lib/domain/inputs/uuid";
import { decodedOrNull } from "@/lib/domain/percent-decoding";
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { getSession } from "@/lib/server/session/session";
import { pageAddress, webhooksHref } from "@/lib/server/session/page-application";

const LOOKED = {
  none: "None of your other applications has a webhook with this ID either.",
  partial:
    "None of your other applications that answered has a webhook with this ID; some could not be asked (see the Applications page).",
} as const;

/**
 * An address whose webhook ID is no ID (said so, with what one looks like); a webhook the hub
 * does not know under the application the page names; or an application the session does not
 * hold. With other applications in the session: "Look in my other applications"
 * (`POST /api/applications/look`, a plain form), which asks each of them once and opens the
 * webhook under the one that has it, or comes back here with `?looked=`.
 */
export default async function WebhookNotFound() {
  const [session, address] = await Promise.all([getSession(), pageAddress()]);
  const data = session.status === "signed_in" ? session.data : null;
  const segment = address?.pathname.split("/")[2] ?? "";
  const webhookId = parseWebhookId(decodedOrNull(segment) ?? segment);
  if (address && !webhookId) return <NotAnId />;
  const named = parseApplicationId(address?.searchParams.get("app"));
  const app = data?.applications.find(({ id }) => id === named);
  const unknownApp = named !== null && !app;
  const others = data ? data.applications.filter(({ id }) => id !== app?.id) : [];
  const looked = address?.searchParams.get("looked");

  return (
    <div className="mx-auto max-w-2xl space-y-3">
      <h1 className="text-xl font-semibold">Webhook not found</h1>
      {unknownApp ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This link is for an application that is not in your session (it was opened with another key, or the
          key was replaced since). Add that application&apos;s key on the Applications page, then open the
          link again.
        </p>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          The Messaging Hub has no webhook with this ID for{" "}
          {app ? <strong>{app.name}</strong> : "your API key"}. Check the ID for typos. A key sees only the
          webhooks of its own application: if the webhook belongs to another application, open it under that
          application.
        </p>
      )}
      {looked === "none" || looked === "partial" ? (
        <p role="status" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {LOOKED[looked]}
        </p>
      ) : null}
      {webhookId && others.length > 0 && !looked ? (
        <form method="post" action="/api/applications/look">
          <input type="hidden" name="webhookId" value={webhookId} />
          {named ? <input type="hidden" name="app" value={named} /> : null}
          <button type="submit" className="btn btn-primary">
            Look in my other applications
          </button>
        </form>
      ) : null}
      <div className="flex flex-wrap gap-4 text-sm">
        <Link href={data && app ? webhooksHref(data, app.id) : "/webhooks"} className="btn-link">
          Open another webhook
        </Link>
        <a href="/applications" className="btn-link">
          Add an application
        </a>
      </div>
    </div>
  );
}

/** The address's webhook ID cannot be one: no hub was asked, and no other application would have it. */
function NotAnId() {
  return (
    <div className="mx-auto max-w-2xl space-y-3">
      <h1 className="text-xl font-semibold">Not a valid webhook ID</h1>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{notAnIdMessage("Webhook ID", "webhook ID")}</p>
      <Link href="/webhooks" className="btn-link text-sm">
        Open another webhook
      </Link>
    </div>
  );
}
