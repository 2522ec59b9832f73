import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login/login-form";
import { Notice, type NoticeTone } from "@/components/ui/notice";
import { serverConfig } from "@/lib/server/config";
import { safeNextPath } from "@/lib/domain/safe-next";
import { getSession } from "@/lib/server/session/session";

export const metadata: Metadata = { title: "Sign in" };

const REASONS: Record<string, { tone: NoticeTone; title: string; text: string }> = {
  key_rejected: {
    tone: "error",
    title: "The Messaging Hub rejected your API key",
    text:
      "It may have been rotated or revoked, or it belongs to another application. You have been signed out; sign in with a current key. " +
      "Signing in with the application's new key offers to carry over its watches and alerts, and lists them first.",
  },
  expired: {
    tone: "warning",
    title: "Your session has expired",
    text: "For safety, sessions end after a while. Sign in again with your API key.",
  },
  signed_out: {
    tone: "success",
    title: "You have signed out",
    text: "Your API key was removed from this browser's session.",
  },
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const reasonKey = first(params.reason);
  const reason = reasonKey ? REASONS[reasonKey] : undefined;
  const next = safeNextPath(first(params.next));
  const session = await getSession();
  if (session.status === "signed_in" && !reason) redirect(next);
  const { sandboxMode } = serverConfig();

  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-5 px-4 py-10">
      <div>
        <p className="text-sm font-medium text-blue-700 dark:text-blue-400">Messaging Hub</p>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to the Webhook Console</h1>
        <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
          See every delivery the hub made to your webhooks, find out why one failed, and send a test message
          to check a fix.
        </p>
      </div>
      {reason ? (
        <Notice tone={reason.tone} title={reason.title} role={reason.tone === "error" ? "alert" : "status"}>
          <p>{reason.text}</p>
        </Notice>
      ) : null}
      <LoginForm next={next} sandboxMode={sandboxMode} />
      <div className="space-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <p>
          Your key is the API Key of an application: in the Messaging Hub dashboard, open the application,
          then Settings, then API Key. It is kept only in an encrypted, httpOnly session cookie of this
          console, never in the browser&apos;s storage.
        </p>
        {sandboxMode ? (
          <p>
            This console runs on the local sandbox hub: the demo key signs you in to its demo application.
          </p>
        ) : null}
      </div>
    </main>
  );
}
