import {
  getPath,
  matchesAll,
  matchesAny,
  matchesFilter,
  type PayloadFilter,
  parseFilterValueList,
} from "./payload-filter.js";

const payload = {
  type: "order.created",
  amount: 150,
  amountText: "99.5",
  status: "paid",
  note: null,
  flag: true,
  tags: ["vip", "eu", 7],
  items: [
    { sku: "A-1", qty: 2 },
    { sku: "B-2", qty: 0 },
  ],
  customer: { address: { country: "DE" }, email: "a@example.com" },
  empty: "",
};

describe("getPath", () => {
  it.each([
    ["type", true, "order.created"],
    ["customer.address.country", true, "DE"],
    ["items.0.sku", true, "A-1"],
    ["items.1.qty", true, 0],
    ["items.2.sku", false, undefined],
    ["items.x", false, undefined],
    ["items.01", false, undefined],
    ["note", true, null],
    ["note.deeper", false, undefined],
    ["missing", false, undefined],
    ["customer.missing.deeper", false, undefined],
    ["type.length", false, undefined],
    ["tags.2", true, 7],
    ["constructor", false, undefined],
  ])("looks up %s", (path, found, value) => {
    expect(getPath(payload, path)).toEqual({ found, value });
  });

  it("returns the whole value for an empty path and works on top-level arrays", () => {
    expect(getPath(payload, "")).toEqual({ found: true, value: payload });
    expect(getPath([{ id: 1 }], "0.id")).toEqual({ found: true, value: 1 });
    expect(getPath("scalar", "a")).toEqual({ found: false, value: undefined });
  });
});

describe("matchesFilter", () => {
  const cases: Array<[string, string, unknown, boolean]> = [
    // eq / neq: string or number equality
    ["type", "eq", "order.created", true],
    ["type", "eq", "order.updated", false],
    ["amount", "eq", "150", true],
    ["amount", "eq", 150, true],
    ["amount", "eq", "150.0", true],
    ["amountText", "eq", 99.5, true],
    ["status", "eq", "PAID", false],
    ["flag", "eq", "true", true],
    ["note", "eq", "null", true],
    ["missing", "eq", "x", false],
    ["customer.address.country", "eq", "DE", true],
    ["items.0.sku", "eq", "A-1", true],
    ["type", "neq", "order.updated", true],
    ["type", "neq", "order.created", false],
    ["amount", "neq", "150", false],
    ["missing", "neq", "x", true],
    // contains: substring or array member
    ["type", "contains", "created", true],
    ["type", "contains", "deleted", false],
    ["tags", "contains", "vip", true],
    ["tags", "contains", "us", false],
    ["tags", "contains", "7", true],
    ["customer.email", "contains", "@example.", true],
    ["amount", "contains", "15", false],
    ["customer", "contains", "DE", false],
    ["missing", "contains", "x", false],
    // gt / lt: numeric only
    ["amount", "gt", "100", true],
    ["amount", "gt", 150, false],
    ["amount", "lt", "200", true],
    ["amount", "lt", "150", false],
    ["amountText", "gt", "99", true],
    ["items.1.qty", "lt", "1", true],
    ["status", "gt", "1", false],
    ["status", "lt", "1", false],
    ["amount", "gt", "abc", false],
    ["empty", "lt", "1", false],
    ["note", "lt", "1", false],
    ["missing", "gt", "1", false],
    ["missing", "lt", "1", false],
    // exists / not_exists: null exists
    ["type", "exists", undefined, true],
    ["note", "exists", undefined, true],
    ["items.0.sku", "exists", undefined, true],
    ["items.5.sku", "exists", undefined, false],
    ["missing", "exists", undefined, false],
    ["missing", "not_exists", undefined, true],
    ["type", "not_exists", undefined, false],
    // in / not_in: JSON array or comma-separated list
    ["status", "in", '["paid","refunded"]', true],
    ["status", "in", "pending, paid", true],
    ["status", "in", "pending,refunded", false],
    ["amount", "in", "[100, 150]", true],
    ["amount", "in", "100,150", true],
    ["amount", "in", ["150"], true],
    ["missing", "in", "a,b", false],
    ["status", "not_in", "pending,refunded", true],
    ["status", "not_in", '["paid"]', false],
    ["missing", "not_in", "a,b", true],
    // Text that is not a JSON array is read as a comma-separated list.
    ["status", "in", "[not json, paid", true],
    // unknown operator never matches
    ["type", "like", "order%", false],
  ];

  it.each(cases)("%s %s %j -> %s", (field, operator, value, expected) => {
    const filter: PayloadFilter =
      value === undefined ? { field, operator } : { field, operator, value };
    expect(matchesFilter(payload, filter)).toBe(expected);
  });

  it("works on scalar and array payloads", () => {
    expect(matchesFilter(42, { field: "", operator: "gt", value: "41" })).toBe(true);
    expect(matchesFilter([{ a: "x" }], { field: "0.a", operator: "eq", value: "x" })).toBe(true);
    expect(matchesFilter(null, { field: "a", operator: "exists" })).toBe(false);
  });
});

describe("parseFilterValueList", () => {
  it.each([
    ['["a", 1]', ["a", 1]],
    ["a, b ,c", ["a", "b", "c"]],
    ["single", ["single"]],
    ["", []],
    ["[broken", ["[broken"]],
  ])("parses %j", (value, expected) => {
    expect(parseFilterValueList(value)).toEqual(expected);
  });
});

describe("matchesAll and matchesAny", () => {
  const yes: PayloadFilter = { field: "status", operator: "eq", value: "paid" };
  const no: PayloadFilter = { field: "status", operator: "eq", value: "refunded" };

  it("matches all only when every rule matches", () => {
    expect(matchesAll(payload, [yes, yes])).toBe(true);
    expect(matchesAll(payload, [yes, no])).toBe(false);
  });

  it("matches any when one rule matches", () => {
    expect(matchesAny(payload, [no, yes])).toBe(true);
    expect(matchesAny(payload, [no, no])).toBe(false);
  });

  it("treats an empty rule list as a match", () => {
    expect(matchesAll(payload, [])).toBe(true);
    expect(matchesAny(payload, [])).toBe(true);
  });
});
