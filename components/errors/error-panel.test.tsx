import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ErrorPanel } from "@/components/errors/error-panel";

/**
 * How the console's error answers read where rows, health or a bundle would be. The statuses and
 * messages themselves are the routes' (app/api/webhooks/[webhookId]/webhook-route.test.ts: HTTP
 * 5xx, not JSON, a timeout, a 429 with its Retry-After); tests/e2e/security/ui-recovery.spec.ts
 * shows one in the browser and recovers from it.
 */
describe("ErrorPanel", () => {
  it.each([
    [
      502,
      "The Messaging Hub answered with something that is not JSON.",
      "The Messaging Hub is not answering properly",
    ],
    [503, "The Messaging Hub failed with HTTP 503.", "The Messaging Hub is not answering properly"],
    [504, "The Messaging Hub did not answer within 1.5 s.", "The Messaging Hub is slow to answer"],
    [429, "The Messaging Hub is limiting requests. Wait 4 s and try again.", "Too many requests right now"],
    [500, "The console failed while reading this part of the page.", "Something went wrong"],
    [404, "No webhook was found for this API key.", "Not found"],
    [0, "The console did not answer.", "The console cannot be reached"],
    [400, "Status must be Success or Failed.", "The request could not be completed"],
  ])("HTTP %i: the message under a heading that says what happened", (status, message, title) => {
    render(<ErrorPanel status={status} message={message} />);
    expect(screen.getByText(title, { exact: true })).toBeInTheDocument();
    expect(screen.getByText(message, { exact: true })).toBeInTheDocument();
    expect(screen.queryByText(/You can try again in about/)).not.toBeInTheDocument();
  });

  it("says when to try again, and offers the ways on it is given", () => {
    render(
      <ErrorPanel
        status={429}
        message="The Messaging Hub is limiting requests. Wait 4 s and try again."
        retryAfter={4}
        actions={<button type="button">Try again</button>}
        role="alert"
      />,
    );
    const panel = screen.getByRole("alert");
    expect(panel).toHaveTextContent("Too many requests right now");
    expect(panel).toHaveTextContent("You can try again in about 4 seconds.");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
