import { describe, expect, it } from "vitest";
import { historyQuestionSchema } from "@/lib/domain/inputs/history-question";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import {
  csvCell,
  csvHeader,
  csvRow,
  exportFileName,
  neutraliseFormula,
} from "@/lib/domain/history/export-format";
import { matchesTarget } from "@/lib/domain/history/find-input";

/** The filters of a query as the history routes make them a question (a failure issue is read apart). */
const parse = (query: string) => {
  const result = historyQuestionSchema.safeParse(Object.fromEntries(new URLSearchParams(query)));
  return result.success
    ? { ok: true as const, value: { ...result.data, issue: null } }
    : { ok: false as const, errors: fieldErrors(result.error) };
};

const parseFindInput = (input: string) => {
  const result = findInput.safeParse(input);
  return result.success ? { ok: true, target: result.data } : { ok: false };
};

describe("question", () => {
  it("reads every filter", () => {
    const result = parse(
      "status=failed&code=5xx&since=2025-01-31T02:00:00Z&until=2025-01-31T03:00&contains=TimeOut",
    );
    expect(result).toEqual({
      ok: true,
      value: {
        status: "Failed",
        code: { kind: "class", hundreds: 5 },
        since: Date.parse("2025-01-31T02:00:00Z"),
        until: Date.parse("2025-01-31T03:00:00Z"),
        contains: "timeout",
        issue: null,
      },
    });
    expect(parse("code=0")).toMatchObject({ ok: true, value: { code: { kind: "exact", code: 0 } } });
    expect(parse("code=No connection")).toMatchObject({
      ok: true,
      value: { code: { kind: "exact", code: 0 } },
    });
    expect(parse("code=599")).toMatchObject({ ok: true, value: { code: { kind: "exact", code: 599 } } });
    expect(parse("since=2025-01-31T02:00:00+03:00")).toMatchObject({
      ok: true,
      value: { since: Date.parse("2025-01-30T23:00:00Z") },
    });
    expect(parse("")).toMatchObject({ ok: true, value: { status: null, code: null, since: null } });
  });

  it.each([
    ["status=Pending", "status"],
    ["code=600", "code"],
    ["code=1xx", "code"],
    ["code=6xx", "code"],
    ["code=-1", "code"],
    ["code=abc", "code"],
    ["since=yesterday", "since"],
    ["until=2025-13-45T00:00:00Z", "until"],
    ["since=2025-02-01T00:00:00Z&until=2025-01-01T00:00:00Z", "since"],
    [`contains=${"x".repeat(201)}`, "contains"],
  ])("%s is refused, naming %s", (query, field) => {
    const result = parse(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual([field]);
  });
});

describe("export format", () => {
  it("neutralises cells a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"])
      expect(neutraliseFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutraliseFormula("OK")).toBe("OK");
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("a,b\nc")).toBe('"a,b\nc"');
    expect(csvCell(500)).toBe("500");
  });

  it("writes the spec's fields, the webhook flattened", () => {
    expect(csvHeader()).toBe(
      "\ufeffid,webhookId,statusCode,responseBody,status,sendAt,createdDate,messageId,webhook.id,webhook.endpoint,webhook.eventType\r\n",
    );
    const row = csvRow({
      id: "a",
      webhookId: "w",
      statusCode: 0,
      responseBody: "-1",
      status: "Failed",
      sendAt: "s",
      createdDate: "c",
      messageId: null,
      webhook: { id: "w", endpoint: "https://e", eventType: "Message" },
    });
    expect(row).toBe("a,w,0,'-1,Failed,s,c,,w,https://e,Message\r\n");
  });

  it("names the file after the webhook and the time range", () => {
    const now = Date.parse("2025-02-01T10:00:00Z");
    expect(exportFileName("w1", { since: Date.parse("2025-01-31T02:00:00Z"), until: null }, "csv", now)).toBe(
      "webhook-w1-deliveries-20250131T020000Z-to-20250201T100000Z.csv",
    );
    expect(exportFileName("w1", { since: null, until: null }, "json", now)).toBe(
      "webhook-w1-deliveries-start-to-20250201T100000Z.json",
    );
  });
});

describe("find input", () => {
  const id = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
  const webhook = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
  it("reads an ID or a console link to a delivery", () => {
    expect(parseFindInput(` ${id.toUpperCase()} `)).toEqual({ ok: true, target: { kind: "id", id } });
    expect(parseFindInput(`http://localhost:3000/webhooks/${webhook}?status=Failed&log=${id}`)).toEqual({
      ok: true,
      target: { kind: "log", id, webhookId: webhook },
    });
    expect(parseFindInput(`/webhooks/${webhook}?log=${id}`)).toMatchObject({ ok: true });
  });

  it.each(["", "hello", "1234", `/webhooks/${webhook}`, `/webhooks/${webhook}?log=nope`, "x".repeat(3000)])(
    "refuses %j",
    (input) => expect(parseFindInput(input).ok).toBe(false),
  );

  it("an ID matches a log ID or a message ID; a link only the log", () => {
    expect(matchesTarget({ kind: "id", id }, { id: "other", messageId: id })).toBe(true);
    expect(matchesTarget({ kind: "log", id, webhookId: webhook }, { id: "other", messageId: id })).toBe(
      false,
    );
    expect(matchesTarget({ kind: "log", id, webhookId: webhook }, { id, messageId: null })).toBe(true);
  });
});
