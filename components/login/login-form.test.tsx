import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { LoginForm } from "@/components/login/login-form";
import { fakeApi, fieldRefusal, type ApiAnswer } from "@/tests/support/component-api";

const KEY = "mh_live_0123456789abcdef";

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, "assign").mockImplementation(assign);
});

async function signInWith(typed: string, answer: ApiAnswer = { status: 200, body: {} }) {
  const calls = fakeApi(() => answer);
  const user = userEvent.setup();
  render(
    <LoginForm next="/webhooks/3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f?status=Failed" sandboxMode={false} />,
  );
  if (typed) await user.type(screen.getByLabelText("API key"), typed);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
  return calls;
}

describe("LoginForm", () => {
  it.each([
    ["", "API key: enter your API key."],
    ["short", "API key: enter at least 8 characters: paste the whole key."],
    [
      "two words here",
      "API key: use only printable ASCII characters without spaces: paste the key as issued.",
    ],
  ])("refuses %j in the browser, by the field's label, and sends nothing", async (typed, message) => {
    const calls = await signInWith(typed);
    const field = screen.getByLabelText("API key");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(calls).toEqual([]);
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of the key under the field (a key the hub rejects)", async () => {
    const rejected =
      "API key: the Messaging Hub rejected this key (HTTP 401). Paste the application's current key.";
    const calls = await signInWith(KEY, fieldRefusal({ apiKey: rejected }));
    expect(calls).toEqual([{ method: "POST", path: "/api/session", body: { apiKey: KEY } }]);
    expect(await screen.findByText(rejected)).toBeInTheDocument();
    expect(screen.getByLabelText("API key")).toHaveAccessibleDescription(expect.stringContaining(rejected));
    expect(screen.getByRole("button", { name: "Sign in" })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it("says any other failure in a notice, in the server's words, and marks no field", async () => {
    await signInWith(KEY, {
      status: 429,
      body: { error: { code: "rate_limited", message: "Too many sign-in attempts. Wait 30 seconds." } },
    });
    expect(await screen.findByText("Could not sign in")).toBeInTheDocument();
    expect(screen.getByText("Too many sign-in attempts. Wait 30 seconds.")).toBeInTheDocument();
    expect(screen.getByLabelText("API key")).not.toHaveAttribute("aria-invalid");
  });

  it("signed in, loads the page it was asked for, with the key trimmed", async () => {
    const calls = await signInWith(`  ${KEY}  `);
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith("/webhooks/3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f?status=Failed"),
    );
    expect(calls[0]!.body).toEqual({ apiKey: KEY });
  });

  it("while signing in, the buttons are off and say so", async () => {
    let answer!: (value: ApiAnswer) => void;
    fakeApi(() => new Promise<ApiAnswer>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    render(<LoginForm next="/" sandboxMode />);
    await user.click(screen.getByRole("button", { name: "Use sandbox demo key" }));
    expect(screen.getByRole("button", { name: "Signing in…" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Sign in" })).toBeDisabled();
    answer({ status: 200, body: {} });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("/"));
  });
});
