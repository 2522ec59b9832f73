import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appErrorOf as failure } from "@/tests/support/app-error-of";
import { isJsonContentType, parseJsonBody, parseQuery } from "@/lib/server/http/parse";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";

const schema = z.strictObject({
  name: z.string().min(2, "name is too short"),
  nested: z.strictObject({ n: z.number() }).optional(),
});

describe("fieldErrors", () => {
  it("names nested fields with dots, unknown keys by name, and form-level issues under _", () => {
    const result = schema.safeParse({ name: "x", nested: { n: "1", extra: 1 }, other: 2 });
    expect(result.success).toBe(false);
    const fields = fieldErrors(result.error!);
    expect(fields.name).toEqual(["name is too short"]);
    expect(fields["nested.n"]).toBeDefined();
    expect(fields["nested.extra"]).toEqual(["nested.extra: this request does not take it; leave it out."]);
    expect(fields.other).toEqual(["other: this request does not take it; leave it out."]);
    expect(fieldErrors(z.string().safeParse(1).error!)._).toBeDefined();
  });
});

describe("parseJsonBody", () => {
  const req = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
    new Request("http://x/", { method: "POST", body, headers });

  it("parses JSON with a charset parameter", async () => {
    expect(
      await parseJsonBody(
        req('{"name":"ok"}', { "content-type": "Application/JSON; charset=utf-8" }),
        schema,
      ),
    ).toEqual({ name: "ok" });
  });

  it.each([
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonx",
    "application/json-patch+json",
  ])("refuses %s with 415", async (type) => {
    expect(
      (await failure(() => parseJsonBody(req('{"name":"ok"}', { "content-type": type }), schema))).status,
    ).toBe(415);
  });

  it("refuses a body over the cap with 413, by Content-Length or while reading a stream", async () => {
    expect(
      (await failure(() => parseJsonBody(req(JSON.stringify({ name: "x".repeat(200) })), schema, 100)))
        .status,
    ).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("x".repeat(64)));
      },
    });
    const streamed = new Request("http://x/", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect((await failure(() => parseJsonBody(streamed, schema, 1000))).status).toBe(413);
  });

  it("refuses malformed JSON and invalid shapes with 400 and field errors", async () => {
    expect((await failure(() => parseJsonBody(req("{nope"), schema))).message).toMatch(/not valid JSON/);
    const invalid = await failure(() => parseJsonBody(req('{"name":"x"}'), schema));
    expect(invalid.status).toBe(400);
    expect(invalid.fields).toEqual({ name: ["name is too short"] });
    // The message is the schema's own words, not wrapped in developer wording.
    expect(invalid.message).toBe("name is too short");
  });
});

describe("parseQuery", () => {
  const query = z.strictObject({ a: z.string().optional() });
  it("refuses a repeated parameter and unknown ones", async () => {
    expect((await failure(() => parseQuery(new URL("http://x/?a=1&a=2"), query))).fields).toEqual({
      a: ["a: it is given more than once; give it once."],
    });
    expect((await failure(() => parseQuery(new URL("http://x/?b=1"), query))).fields).toEqual({
      b: ["b: this request does not take it; leave it out."],
    });
    expect(parseQuery(new URL("http://x/?a=%2F"), query)).toEqual({ a: "/" });
  });
});

describe("isJsonContentType", () => {
  it("is true only for application/json", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType(null)).toBe(false);
    expect(isJsonContentType("")).toBe(false);
  });
});
