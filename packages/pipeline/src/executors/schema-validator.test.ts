import type { SchemaField, SchemaValidatorConfig } from "../families/definitions.js";
import { inProcessPatternPort } from "../testing/fake-ports.js";
import { INLINE_PATTERN_BUDGET } from "./inline-patterns.js";
import { validateSchema as validate } from "./schema-validator.js";
import { matchesFormat } from "./value-formats.js";

const field = (f: Partial<SchemaField> & Pick<SchemaField, "path" | "type">): SchemaField => ({
  required: false,
  ...f,
});

const offloaded: number[] = [];
const validateSchema = (config: SchemaValidatorConfig, payload: unknown) =>
  validate(config, payload, inProcessPatternPort(offloaded));

const schema = (fields: SchemaField[], strictMode = false): SchemaValidatorConfig => ({
  strictMode,
  fields,
});

describe("validateSchema", () => {
  const cases: Array<[string, SchemaField, unknown, string[] | "ok"]> = [
    ["accepts a string", field({ path: "a", type: "string" }), { a: "x" }, "ok"],
    [
      "rejects a number as string",
      field({ path: "a", type: "string" }),
      { a: 1 },
      ["a: expected string, got integer"],
    ],
    ["accepts a fraction as number", field({ path: "a", type: "number" }), { a: 1.5 }, "ok"],
    ["accepts an integer as number", field({ path: "a", type: "number" }), { a: 2 }, "ok"],
    [
      "rejects a fraction as integer",
      field({ path: "a", type: "integer" }),
      { a: 1.5 },
      ["a: expected integer, got number"],
    ],
    [
      "accepts 2.0 as integer (JSON has one number type)",
      field({ path: "a", type: "integer" }),
      JSON.parse('{"a":2.0}'),
      "ok",
    ],
    ["accepts a boolean", field({ path: "a", type: "boolean" }), { a: false }, "ok"],
    [
      "rejects an array as object",
      field({ path: "a", type: "object" }),
      { a: [] },
      ["a: expected object, got array"],
    ],
    [
      "rejects null as object",
      field({ path: "a", type: "object" }),
      { a: null },
      ["a: expected object, got null"],
    ],
    ["accepts null as null", field({ path: "a", type: "null" }), { a: null }, "ok"],
    ["accepts an array", field({ path: "a", type: "array" }), { a: [1] }, "ok"],
    ["skips an absent optional field", field({ path: "a", type: "string" }), {}, "ok"],
    [
      "rejects an absent required field",
      field({ path: "a", type: "string", required: true }),
      {},
      ["a: is required"],
    ],
    [
      "reads nested paths and array indexes",
      field({ path: "items.1.sku", type: "string", required: true }),
      { items: [{}, { sku: "x" }] },
      "ok",
    ],
    [
      "reports a missing nested field",
      field({ path: "items.1.sku", type: "string", required: true }),
      { items: [{ sku: "x" }] },
      ["items.1.sku: is required"],
    ],
    [
      "checks min and max",
      field({ path: "n", type: "number", constraints: { min: 1, max: 3 } }),
      { n: 4 },
      ["n: must be <= 3"],
    ],
    [
      "checks min",
      field({ path: "n", type: "integer", constraints: { min: 1 } }),
      { n: 0 },
      ["n: must be >= 1"],
    ],
    [
      "counts code points for minLength",
      field({ path: "s", type: "string", constraints: { minLength: 2 } }),
      { s: "😀" },
      ["s: length must be >= 2"],
    ],
    [
      "checks maxLength of arrays",
      field({ path: "l", type: "array", constraints: { maxLength: 1 } }),
      { l: [1, 2] },
      ["l: length must be <= 1"],
    ],
    [
      "checks a pattern",
      field({ path: "s", type: "string", constraints: { pattern: "^ab+$" } }),
      { s: "ac" },
      ["s: must match pattern ^ab+$"],
    ],
    [
      "passes a pattern",
      field({ path: "s", type: "string", constraints: { pattern: "^ab+$" } }),
      { s: "abbb" },
      "ok",
    ],
    [
      "checks an enum",
      field({ path: "s", type: "string", constraints: { enum: ["a", "b"] } }),
      { s: "c" },
      ['s: must be one of "a", "b"'],
    ],
    [
      "compares enum values strictly",
      field({ path: "n", type: "number", constraints: { enum: ["1"] } }),
      { n: 1 },
      ['n: must be one of "1"'],
    ],
    [
      "checks an email format",
      field({ path: "e", type: "string", constraints: { format: "email" } }),
      { e: "nope" },
      ["e: must be a valid email"],
    ],
    [
      "reports only the type when it is wrong",
      field({ path: "n", type: "integer", constraints: { min: 5 } }),
      { n: "1" },
      ["n: expected integer, got string"],
    ],
  ];
  it.each(cases)("%s", async (_name, f, payload, expected) => {
    const result = await validateSchema(schema([f]), payload);
    if (expected === "ok") expect(result).toEqual({ ok: true });
    else expect(result).toEqual({ ok: false, errors: expected });
  });

  it("reports every failing field, not just the first", async () => {
    const result = await validateSchema(
      schema([
        field({ path: "a", type: "string", required: true }),
        field({ path: "b", type: "number", required: true }),
      ]),
      {},
    );
    expect(result).toEqual({ ok: false, errors: ["a: is required", "b: is required"] });
  });

  it("answers a catastrophic pattern in linear time", async () => {
    const result = await validateSchema(
      schema([field({ path: "s", type: "string", constraints: { pattern: "^(a|a)*$" } })]),
      { s: `${"a".repeat(26)}!` },
    );
    expect(result).toEqual({ ok: false, errors: ["s: must match pattern ^(a|a)*$"] });
  });

  it("reports a stored pattern the engine cannot run as rejected", async () => {
    const result = await validateSchema(
      schema([field({ path: "s", type: "string", constraints: { pattern: "(a)\\1" } })]),
      { s: "aa" },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatch(/^s: pattern rejected \(not supported/);
  });

  it("matches cheap checks inline and sends costly ones to the pattern port, in field order", async () => {
    offloaded.length = 0;
    const long = "b".repeat(INLINE_PATTERN_BUDGET);
    const result = await validateSchema(
      schema([
        field({ path: "a", type: "string", constraints: { pattern: "^a+$" } }),
        field({ path: "long", type: "string", constraints: { pattern: "^a+$" } }),
        field({ path: "c", type: "string", constraints: { pattern: "^c$" } }),
      ]),
      { a: "x", long, c: "x" },
    );
    expect(offloaded).toEqual([1]);
    expect(result).toEqual({
      ok: false,
      errors: [
        "a: must match pattern ^a+$",
        "long: must match pattern ^a+$",
        "c: must match pattern ^c$",
      ],
    });
  });

  it("fails the node when the pattern port cannot answer", async () => {
    const result = await validate(
      schema([field({ path: "s", type: "string", constraints: { pattern: "^a+$" } })]),
      { s: "a".repeat(INLINE_PATTERN_BUDGET) },
      { match: async () => ({ ok: false, error: "exceeded the 100 ms time limit" }) },
    );
    expect(result).toEqual({
      ok: false,
      errors: ["pattern matching failed: exceeded the 100 ms time limit"],
    });
  });

  it("caps the number of errors it reports", async () => {
    const fields = Array.from({ length: 60 }, (_, i) =>
      field({ path: `f${i}`, type: "string", required: true }),
    );
    const result = await validateSchema(schema(fields), {});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(51);
      expect(result.errors.at(-1)).toBe("and 10 more");
    }
  });
});

describe("strict mode", () => {
  const strict = (fields: SchemaField[], payload: unknown) =>
    validateSchema(schema(fields, true), payload);

  it("rejects top-level fields that are not listed", async () => {
    await expect(strict([field({ path: "a", type: "string" })], { a: "x", b: 1 })).resolves.toEqual(
      {
        ok: false,
        errors: ["b: not allowed (strict mode)"],
      },
    );
  });

  it("accepts anything inside a listed object that has no listed children", async () => {
    await expect(
      strict([field({ path: "customer", type: "object" })], { customer: { id: 1, extra: true } }),
    ).resolves.toEqual({ ok: true });
  });

  it("checks the keys of an object whose children are listed", async () => {
    await expect(
      strict([field({ path: "customer.id", type: "integer" })], { customer: { id: 1, name: "x" } }),
    ).resolves.toEqual({ ok: false, errors: ["customer.name: not allowed (strict mode)"] });
  });

  it("checks an array item only when a listed path names its index", async () => {
    const fields = [field({ path: "items.0.sku", type: "string" })];
    await expect(
      strict(fields, { items: [{ sku: "a", price: 1 }, { anything: true }] }),
    ).resolves.toEqual({
      ok: false,
      errors: ["items.0.price: not allowed (strict mode)"],
    });
  });

  it("accepts a payload whose fields are all listed, optional ones absent", async () => {
    const fields = [field({ path: "a", type: "string" }), field({ path: "b.c", type: "number" })];
    await expect(strict(fields, { a: "x" })).resolves.toEqual({ ok: true });
  });

  it("never rejects a scalar or array root", async () => {
    await expect(strict([], [1, 2])).resolves.toEqual({ ok: true });
    await expect(strict([], "text")).resolves.toEqual({ ok: true });
  });
});

describe("matchesFormat", () => {
  const cases: Array<[Parameters<typeof matchesFormat>[0], string, boolean]> = [
    ["email", "ada@example.com", true],
    ["email", "ada@localhost", false],
    ["email", "a da@example.com", false],
    ["email", "@example.com", false],
    ["uri", "https://example.com/a?b=c", true],
    ["uri", "urn:isbn:0451450523", true],
    ["uri", "/relative/path", false],
    ["uri", "not a uri", false],
    ["date-time", "2024-02-29T12:30:00Z", true],
    ["date-time", "2024-02-29T12:30:00.123+02:00", true],
    ["date-time", "2023-02-29T12:30:00Z", false],
    ["date-time", "2024-01-01", false],
    ["date-time", "2024-01-01T25:00:00Z", false],
    ["uuid", "123e4567-e89b-12d3-a456-426614174000", true],
    ["uuid", "123e4567e89b12d3a456426614174000", false],
  ];
  it.each(cases)("%s %s -> %s", (format, value, expected) => {
    expect(matchesFormat(format, value)).toBe(expected);
  });
});
