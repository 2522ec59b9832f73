import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { MaintenanceWindowView } from "@/lib/domain/maintenance/view";
import { MaintenanceSection } from "@/components/maintenance/maintenance-section";
import {
  fakeApi,
  fieldRefusal,
  renderWithQueries,
  type ApiAnswer,
  type ApiCall,
} from "@/tests/support/component-api";

const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

const weekly: MaintenanceWindowView = {
  id: "w1",
  appId: "a1",
  webhookId: null,
  webhookName: null,
  schedule: { kind: "weekly", days: [2, 4], start: "14:00", durationMinutes: 90, zone: "Europe/Berlin" },
  note: "Deploys",
  current: null,
  next: { start: "2026-12-01T13:00:00.000Z", end: "2026-12-01T14:30:00.000Z" },
  createdAt: "2026-11-25T12:00:00.000Z",
};

function setUp(
  windows: MaintenanceWindowView[],
  onPost: (call: ApiCall) => ApiAnswer = () => ({ status: 201, body: { window: weekly } }),
) {
  const calls = fakeApi((call) =>
    call.method === "GET" ? { status: 200, body: { windows } } : onPost(call),
  );
  renderWithQueries(<MaintenanceSection webhookId={WEBHOOK} />);
  const form = screen.getByRole("form", { name: "Add a maintenance window" });
  const field = (label: string) => within(form).getByLabelText(label, { exact: true });
  return { calls, form, field, user: userEvent.setup() };
}

const posts = (calls: ApiCall[]) => calls.filter((call) => call.method === "POST");

describe("MaintenanceSection", () => {
  it("says when the next window is, and lists each with what it covers", async () => {
    setUp([weekly]);
    expect(await screen.findByText(/^Next maintenance window:/)).toBeInTheDocument();
    expect(
      screen.getByText(
        "Whole application · Every Tuesday and Thursday, 14:00 for 1 h 30 min (Europe/Berlin)",
      ),
    ).toBeInTheDocument();
    expect(screen.getByText("Deploys")).toBeInTheDocument();
  });

  it("says until when a window is on", async () => {
    const on = { ...weekly, webhookId: WEBHOOK, current: weekly.next, next: null };
    setUp([on]);
    expect(await screen.findByText(/^In maintenance until/)).toBeInTheDocument();
    expect(screen.getByText(/^This webhook · /)).toBeInTheDocument();
  });

  it.each([
    [
      "an end before the start",
      "once",
      { Starts: "2026-12-02T14:00", Ends: "2026-12-02T13:00" },
      "Ends",
      "Ends: pick a time after the start.",
    ],
    [
      "no time given",
      "once",
      { Ends: "2026-12-02T13:00" },
      "Starts",
      "Starts: enter a date and a time, e.g. 2026-12-02T14:00.",
    ],
    [
      "a duration of 0",
      "weekly",
      { Tuesday: true, "Duration (minutes)": "0" },
      "Duration (minutes)",
      "Duration (minutes): enter a whole number of minutes from 1 to 1440 (a day).",
    ],
  ] as const)(
    "%s is refused by its label and nothing is sent",
    async (_name, repeats, typed, label, message) => {
      const { calls, field, form, user } = setUp([]);
      if (repeats === "weekly") await user.click(within(form).getByLabelText("Every week"));
      for (const [name, value] of Object.entries(typed)) {
        if (value === true) await user.click(within(form).getByLabelText(name));
        else {
          await user.clear(field(name));
          await user.type(field(name), value);
        }
      }
      await user.click(within(form).getByRole("button", { name: "Add window" }));
      expect(field(label)).toHaveAttribute("aria-invalid", "true");
      expect(field(label)).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(posts(calls)).toEqual([]);
    },
  );

  it("a weekly window with no day ticked is refused by Days", async () => {
    const { calls, form, user } = setUp([]);
    await user.click(within(form).getByLabelText("Every week"));
    await user.click(within(form).getByRole("button", { name: "Add window" }));
    const days = within(form).getByRole("group", { name: "Days" });
    expect(days).toHaveAttribute("aria-invalid", "true");
    expect(days).toHaveAccessibleDescription("Days: tick at least one day of the week.");
    expect(posts(calls)).toEqual([]);
  });

  it("sends a weekly window for this webhook as the route takes it", async () => {
    const { calls, form, field, user } = setUp([]);
    await user.click(within(form).getByLabelText("Every week"));
    await user.click(within(form).getByLabelText("Thursday"));
    await user.click(within(form).getByLabelText("Tuesday"));
    await user.selectOptions(field("Time zone"), "Europe/Berlin");
    await user.type(field("Note"), "Deploys");
    await user.click(within(form).getByRole("button", { name: "Add window" }));
    await screen.findByText("Window added.");
    expect(posts(calls)).toEqual([
      {
        method: "POST",
        path: "/api/maintenance",
        body: {
          webhookId: WEBHOOK,
          repeats: "weekly",
          days: [2, 4],
          start: "14:00",
          durationMinutes: 60,
          zone: "Europe/Berlin",
          note: "Deploys",
        },
      },
    ]);
  });

  it("shows the server's refusal beside the field it names", async () => {
    const passed = "Ends: this time has passed (2026-11-20T10:00:00.000Z). Pick a time in the future.";
    const { field, user } = setUp([], () => fieldRefusal({ end: passed }));
    await user.type(field("Starts"), "2026-11-20T09:00");
    await user.type(field("Ends"), "2026-11-20T10:00");
    await user.click(screen.getByRole("button", { name: "Add window" }));
    await screen.findAllByText(passed);
    expect(field("Ends")).toHaveAccessibleDescription(expect.stringContaining(passed));
  });
});
