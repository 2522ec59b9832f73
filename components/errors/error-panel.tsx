import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";

/** A heading for an error a person meets, by HTTP status (0: the console itself was unreachable). */
function errorTitle(status: number): string {
  if (status === 0) return "The console cannot be reached";
  if (status === 404) return "Not found";
  if (status === 429) return "Too many requests right now";
  if (status === 504) return "The Messaging Hub is slow to answer";
  if (status === 502 || status === 503) return "The Messaging Hub is not answering properly";
  if (status >= 500) return "Something went wrong";
  return "The request could not be completed";
}

/** An error with what happened, when to try again, and ways on (`actions`). */
export function ErrorPanel({
  status,
  message,
  retryAfter,
  actions,
  role,
}: {
  status: number;
  message: string;
  retryAfter?: number | null;
  actions?: ReactNode;
  role?: "alert";
}) {
  return (
    <Notice
      tone={status === 429 || status === 504 ? "warning" : "error"}
      title={errorTitle(status)}
      role={role}
    >
      <p>{message}</p>
      {retryAfter ? <p>You can try again in about {retryAfter} seconds.</p> : null}
      {actions ? <div className="flex flex-wrap items-center gap-3 pt-1">{actions}</div> : null}
    </Notice>
  );
}
