import fc from "fast-check";
import {
  getPath,
  matchesAll,
  matchesAny,
  matchesFilter,
  type PayloadFilter,
  parseFilterValueList,
} from "./payload-filter.js";

/** Paths as users write them, and as an attacker would. */
const path = fc.oneof(
  fc.string(),
  fc
    .array(fc.oneof(fc.stringMatching(/^[a-z]{1,4}$/), fc.nat({ max: 5 }).map(String)), {
      maxLength: 5,
    })
    .map((parts) => parts.join(".")),
  fc.constantFrom("__proto__", "constructor", "__proto__.polluted", "constructor.prototype", ""),
);
const operator = fc.oneof(
  fc.constantFrom("eq", "neq", "contains", "gt", "lt", "exists", "not_exists", "in", "not_in"),
  fc.string(),
);
const filter: fc.Arbitrary<PayloadFilter> = fc.record(
  { field: path, operator, value: fc.oneof(fc.jsonValue(), fc.string()) },
  { requiredKeys: ["field", "operator"] },
);
/** Payloads that are any JSON, plus objects whose keys are path-like. */
const payload = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.jsonValue(), { maxKeys: 5 }),
);

describe("payload filters, properties", () => {
  it("never throw, whatever the payload and the rule", () => {
    fc.assert(
      fc.property(payload, filter, (value, rule) => {
        expect(typeof matchesFilter(value, rule)).toBe("boolean");
      }),
    );
  });

  it("never read inherited properties or pollute prototypes", () => {
    fc.assert(
      fc.property(payload, path, (value, field) => {
        const lookup = getPath(value, field);
        if (lookup.found && field !== "") {
          const head = field.split(".")[0] ?? "";
          expect(
            Array.isArray(value) ||
              (typeof value === "object" && value !== null && Object.hasOwn(value, head)),
          ).toBe(true);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
    );
  });

  it("make exists and not_exists complements, and neq the negation of eq", () => {
    fc.assert(
      fc.property(payload, path, fc.jsonValue(), (value, field, expected) => {
        const exists = matchesFilter(value, { field, operator: "exists" });
        expect(matchesFilter(value, { field, operator: "not_exists" })).toBe(!exists);
        const eq = matchesFilter(value, { field, operator: "eq", value: expected });
        expect(matchesFilter(value, { field, operator: "neq", value: expected })).toBe(!eq);
        const isIn = matchesFilter(value, { field, operator: "in", value: expected });
        expect(matchesFilter(value, { field, operator: "not_in", value: expected })).toBe(!isIn);
      }),
    );
  });

  it("match a whole list as AND and OR of its rules", () => {
    fc.assert(
      fc.property(payload, fc.array(filter, { maxLength: 5 }), (value, rules) => {
        const each = rules.map((rule) => matchesFilter(value, rule));
        expect(matchesAll(value, rules)).toBe(each.every(Boolean));
        expect(matchesAny(value, rules)).toBe(rules.length === 0 || each.some(Boolean));
      }),
    );
  });

  it("read any list value without throwing", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string()), (value) => {
        expect(Array.isArray(parseFilterValueList(value))).toBe(true);
      }),
    );
  });
});
