import Link from "next/link";
import { isApiError } from "@/lib/browser/api";
import { ErrorPanel } from "@/components/errors/error-panel";

/** What ErrorPanel needs of an error besides its message: 500 when it is not the console's own. */
function errorDetails(error: Error) {
  return isApiError(error)
    ? { status: error.status, retryAfter: error.retryAfter }
    : { status: 500, retryAfter: null };
}

/** The logs could not be loaded at all. */
export function LogsLoadFailed({ error, onTryAgain }: { error: Error; onTryAgain: () => void }) {
  return (
    <div className="mx-auto max-w-xl text-left">
      <ErrorPanel
        role="alert"
        {...errorDetails(error)}
        message={error.message}
        actions={
          <>
            <button type="button" className="btn btn-primary" onClick={onTryAgain}>
              Try again
            </button>
            <Link href="/webhooks" className="btn-link">
              Open another webhook
            </Link>
          </>
        }
      />
    </div>
  );
}

/** A refresh failed; the rows on screen are from the last successful load. */
export function LogsRefreshFailed({ error, onTryAgain }: { error: Error; onTryAgain: () => void }) {
  return (
    <ErrorPanel
      {...errorDetails(error)}
      message={`Could not refresh the logs: ${error.message} The rows below are from the last successful load.`}
      role="alert"
      actions={
        <button type="button" className="btn btn-secondary" onClick={onTryAgain}>
          Try again
        </button>
      }
    />
  );
}
