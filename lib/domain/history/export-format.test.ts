import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvHeader, csvRow, neutraliseFormula } from "@/lib/domain/history/export-format";

/** What a spreadsheet that ignores quotes sees: the text split on one list separator, each part trimmed of spaces. */
function partsSplitOn(text: string, separator: string): string[] {
  return text.split(separator).map((part) => part.replace(/^ +/, ""));
}

const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const SEPARATORS = [",", ";", "\t", "|", "\n", "\r"];

const row = (responseBody: string) =>
  csvRow({
    id: "a",
    webhookId: "w",
    statusCode: 500,
    responseBody,
    status: "Failed",
    sendAt: "2025-01-31T02:00:00Z",
    createdDate: "2025-01-31T02:00:00Z",
    messageId: null,
    webhook: { id: "w", endpoint: "https://e.example/hook", eventType: "Message" },
  });

describe("CSV export in every locale", () => {
  const bodies = [
    "ok;=1+1;@SUM(A1:A9)",
    'ok;=HYPERLINK("http://x")',
    "a,b;  -2+3",
    "ok\t=cmd|' /C calc'!A0",
    "x|+1|@y",
    "line\n=1+1\r\n@2",
    "=1;=2,=3",
    "ok; \uff1d1+1",
    "\t=1",
  ];

  it.each(bodies)("no part of %j starts a formula, whichever separator splits it", (body) => {
    const cell = csvCell(body);
    const line = row(body);
    for (const separator of SEPARATORS) {
      for (const text of [cell, line]) {
        for (const part of partsSplitOn(text, separator)) {
          // A part may open with the cell's quote: what follows it must not start a formula either.
          expect(
            part.replace(/^"/, ""),
            `${JSON.stringify(text)} split on ${JSON.stringify(separator)}`,
          ).not.toMatch(FORMULA_START);
        }
      }
    }
  });

  it("quotes every cell holding a separator a spreadsheet may use, so a quote-aware reader keeps it whole", () => {
    for (const separator of SEPARATORS) expect(csvCell(`a${separator}b`)).toBe(`"a${separator}b"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("plain text")).toBe("plain text");
  });

  it("keeps the text otherwise as it was: only an apostrophe before each formula start", () => {
    expect(neutraliseFormula("ok;=1+1;@SUM(A1)")).toBe("ok;'=1+1;'@SUM(A1)");
    expect(neutraliseFormula("a, -b")).toBe("a,' -b");
    expect(neutraliseFormula("2025-01-31 a-b x=y")).toBe("2025-01-31 a-b x=y");
    expect(neutraliseFormula("-1")).toBe("'-1");
  });

  it("opens with a UTF-8 byte order mark, so Excel reads accents and emoji right", () => {
    expect(csvHeader().startsWith(CSV_BOM)).toBe(true);
    expect(new TextEncoder().encode(csvHeader()).subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });
});
