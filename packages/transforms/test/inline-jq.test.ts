// Differential tests of the inline jq evaluator against jq 1.8 itself (jq-wasm, the same build
// the worker threads run, with the same wrapper): whenever the inline evaluator answers, its
// answer must be jq's, output or error. Curated programs cover the subset's constructs and its
// grammar's corners (and many programs beyond it, which must give way); seeded random programs
// and inputs cover their combinations. test/jq-corpus.test.ts covers real-world programs.
import { createInlineJq } from "../src/jq/inline/inline-jq.js";
import { loadReferenceJq, referenceJq } from "./jq-reference.js";

const inline = createInlineJq();

beforeAll(loadReferenceJq);

interface Tally {
  inline: number;
  gaveWay: number;
  differences: string[];
}

function check(program: string, inputJson: string, tally: Tally): void {
  const answer = inline.run(program, JSON.parse(inputJson), inputJson);
  if (answer === undefined) {
    tally.gaveWay++;
    return;
  }
  tally.inline++;
  const expected = referenceJq(program, inputJson);
  if (JSON.stringify(answer) !== JSON.stringify(expected)) {
    tally.differences.push(
      `program: ${program}\n  input: ${inputJson.slice(0, 300)}\n  inline: ${JSON.stringify(answer).slice(0, 300)}\n  jq:     ${JSON.stringify(expected).slice(0, 300)}`,
    );
  }
}

const ORDER = JSON.stringify({
  type: "order.created",
  data: {
    id: "ord_123",
    customer: { id: "cus_9", email: "ada@example.com", name: "Ada Lovelace", vip: true },
    items: [
      { sku: "SKU-1", qty: 2, price: 19.99, tags: ["a", "b"] },
      { sku: "SKU-2", qty: 1, price: 5, tags: [] },
      { sku: "SKU-3", qty: 3, price: 0.1, tags: ["b"] },
    ],
    note: null,
    shipping: { city: "London", country: "GB" },
  },
  attempts: 3,
});
const INTEGERS = JSON.stringify({
  id: 42,
  name: "Widget ✓ 😀",
  counts: [3, 1, 2, 2, -7, 0],
  nested: {
    a: { b: { c: 1 } },
    list: [
      { k: "x", v: 1 },
      { k: "y", v: 2 },
    ],
  },
  flags: [true, false, null],
  words: ["b", "a", "C", "é", "😀", "Z"],
  empty: {},
  none: [],
  text: "a,b,,c",
});
const INPUTS = [
  ORDER,
  INTEGERS,
  "null",
  "1",
  '"text"',
  "[1,2,3]",
  "[]",
  "{}",
  "true",
  '[{"a":1},{"a":null},{"b":2}]',
];

const PROGRAMS = [
  // paths and construction
  ".",
  ".data.id",
  ".data.customer.email",
  '.data."customer".name',
  '.["data"]["items"][0]',
  ".data.items[1].sku",
  ".data.items[-1]",
  ".data.items[5]",
  ".data.items[]",
  ".data.items[].sku",
  ".data.items[]?",
  ".missing.deeper",
  ".data.items[1:]",
  ".data.items[:-1]",
  ".data.items[1:2]",
  ".name[0:3]",
  ".counts[2:]",
  "{type, orderId: .data.id, email: .data.customer.email, lines: [.data.items[] | {sku, qty, total: (.qty * .price)}]}",
  "{(.type): 1}",
  "{a: 1, b: .missing}",
  '{"x y": 1, "\\(.type)": 2}',
  "{$__x}",
  ". as $o | {id: $o.data.id}",
  "{if: 1, then: 2}",
  "[.data.items[].qty]",
  "[.[]?]",
  "[..]",
  "[.. | numbers]",
  "[paths]",
  "[leaf_paths]",
  '[paths(type == "number")]',
  // operators
  ".attempts + 1",
  ".attempts - 1",
  ".attempts * 2",
  ".attempts / 2",
  ".attempts % 2",
  "[.counts[] % 3]",
  "-.attempts",
  "-1 + 2",
  "2 * -3 + 1",
  "1 + 2 * 3",
  "(1 + 2) * 3",
  "[(1,2) + (10,20)]",
  "[(1,2) * (3,4)]",
  ".data + {extra: true}",
  ".counts + [9]",
  ".counts - [2]",
  '.text + "!"',
  ".name * 2",
  ".name * 0",
  "{a: {b: 1}} * {a: {c: 2}}",
  '.text / ","',
  "null + 1",
  "1 + null",
  ".data.items | length",
  "[.[] | length]",
  ".name | length",
  ".name | utf8bytelength",
  "1 == 1.0",
  "[1,2] == [1,2]",
  "{a:1,b:2} == {b:2,a:1}",
  "[.counts[] < 2]",
  '["a" < "b", [] < {}, null < false, false < true, true < 0]',
  ".attempts > 2 and .data.customer.vip",
  ".missing or false",
  "[(true, false) and (true, false)]",
  "[(true, false) or (true, false)]",
  '.missing // "default"',
  "[(1,null) // (2,3)]",
  "[(null, false) // (2,3)]",
  "[.[] // 0]",
  "(.a // .b) // .c",
  // control flow
  'if .attempts > 2 then "many" else "few" end',
  "if .missing then 1 end",
  'if . == null then "null" elif . == 1 then "one" else "other" end',
  '[.[] | if type == "number" then . * 2 else . end]',
  'try error("x") catch .',
  "try error({code: 1}) catch .code",
  '[.[] | try (if type == "number" then error("n") else . end) catch "caught"]',
  "try .data.items[0].sku.x",
  "[.[] | .a?]",
  '[(1, error("x"))?]',
  'try (1, error("x")) catch .',
  '.a? // "none"',
  "[.[] | (.a)?]",
  "reduce .data.items[] as $i (0; . + $i.qty)",
  "reduce .counts[] as $n ({}; .[$n | tostring] += 1)",
  "reduce (1,2,3) as $x (0, 10; . + $x)",
  "reduce range(5) as $x (0; empty)",
  "reduce range(3) as $x (0; ., 100)",
  "[foreach .counts[] as $n (0; . + $n)]",
  "[foreach .counts[] as $n (0; . + $n; [$n, .])]",
  "[foreach (1,2) as $x (0; (. + $x), (. * 10))]",
  ". as [$a, $b] | [$b, $a]",
  ".nested as {a: {b: $b}, list: [$first]} | [$b, $first]",
  ".nested as {$list} | $list | length",
  '[.data.items[] as {sku: $s, qty: $q} | "\\($s)x\\($q)"]',
  "1 as $x | 2 as $y | [$x, $y, $x + $y]",
  ". as $dot | [1,2] | map(. + ($dot | length))",
  "$ENV",
  "env | length",
  "input_filename",
  // strings and formats
  '"id: \\(.id)"',
  '"\\(1,2)-\\(3,4)"',
  "@base64",
  '@base64 "x\\(.name)y"',
  '@uri "q=\\(.name)"',
  "@html",
  "@json",
  "@text",
  "[.counts[] | @text]",
  ".words | @csv",
  ".words | @tsv",
  ".words | @sh",
  "[.flags[] | tostring]",
  '.flags | join(",")',
  '.counts | join("-")',
  '.words | join(", ")',
  '[] | join(",")',
  "tojson",
  "tojson | fromjson",
  ".name | ascii_downcase",
  ".name | ascii_upcase",
  ".name | explode",
  ".name | explode | implode",
  '.text | split(",")',
  '"" | split(",")',
  '.name | split("")',
  '.name | ltrimstr("Wid")',
  '.name | rtrimstr("😀")',
  '.name | startswith("Wid")',
  '.name | endswith("x")',
  '[.words[] | startswith("a")]',
  ".id | tostring",
  '"42" | tonumber',
  '"-7" | tonumber + 1',
  ".text | tonumber",
  // builtins over collections
  "keys",
  "keys_unsorted",
  ".nested | keys",
  'has("id")',
  ".counts | has(2)",
  ".counts | has(10)",
  '"id" | in({"id": 1})',
  ".counts | contains([2,3])",
  ".nested | contains({a: {b: {}}})",
  '.name | contains("get")',
  "[1] | inside([1,2])",
  ".counts | add",
  ".words | add",
  ".nested.list | add",
  "[] | add",
  "add(.counts[])",
  ".counts | any",
  ".flags | all",
  ".counts | any(. > 2)",
  ".counts | all(. > -10)",
  "any(.counts[]; . == 2)",
  "all(.counts[]; . < 3)",
  "isempty(.counts[] | select(. > 100))",
  ".counts | map(. * 2)",
  ".nested.list | map(.v)",
  ".nested.list | map(select(.v > 1))",
  "map_values(type)",
  ".nested.list[0] | map_values(. // empty)",
  "to_entries",
  ".nested.list[0] | to_entries",
  ".nested.list | from_entries",
  '[{key: "a", value: 1}, {name: "b", value: 2}, {Key: "c", Value: 3}] | from_entries',
  "with_entries(.value |= type)",
  '.nested.list[0] | with_entries(select(.key == "k"))',
  ".counts | sort",
  ".words | sort",
  ".flags | sort",
  "[.[]?] | sort",
  ".nested.list | sort_by(.v)",
  ".nested.list | sort_by(-.v)",
  ".counts | group_by(. % 2)",
  ".counts | unique",
  ".nested.list | unique_by(.k)",
  ".counts | min, max",
  "[] | min",
  ".nested.list | min_by(.v), max_by(.v)",
  "[{a:1,b:1},{a:1,b:2}] | max_by(.a), min_by(.a)",
  ".counts | reverse",
  "[[1,[2]],3] | flatten",
  "[[1,[2]],3] | flatten(1)",
  "[range(5)]",
  "[range(2; 6)]",
  "[range(0)]",
  "[.counts[] | floor, ceil]",
  "[1.5, 2.5, -1.5, -2.5, 0.49999999999999994] | map(round)",
  "[4, 2.25] | map(sqrt)",
  "[-3, 3] | map(fabs)",
  ".counts | first, last",
  ".counts | nth(2)",
  "first(.counts[] | select(. > 1))",
  "[limit(3; .counts[])]",
  "[limit(0; .counts[])]",
  "[.counts[] | select(. > 1)]",
  '[.. | select(type == "string")]',
  "[.[] | numbers]",
  "[.[] | strings]",
  "[.[] | scalars]",
  "[.[] | iterables]",
  "[.[] | values]",
  "[.[] | nulls]",
  "[.[] | booleans]",
  "[.[] | arrays]",
  "[.[] | objects]",
  "[recurse(.[]?) | type]",
  "[3 | until(. > 100; . * 2)]",
  "[1 | while(. < 20; . * 3)]",
  "[.counts | recurse(if length > 1 then .[1:] else empty end) | length]",
  'getpath(["nested", "a", "b"])',
  'getpath(["missing", 1])',
  'setpath(["nested", "a"]; 1)',
  'delpaths([["nested"], ["id"]])',
  "del(.nested, .id)",
  "del(.counts[0, 2])",
  "del(.. | select(. == null))",
  'walk(if type == "number" then . + 1 else . end)',
  "[[1,2],[3]] | transpose",
  ".counts | IN(2)",
  "IN(.counts[]; 2, 9)",
  "type",
  "[.[] | type]",
  "not",
  "[.[] | not]",
  "debug",
  "empty",
  'error("custom")',
  "error",
  "error(null)",
  // assignment
  '.data.id = "new"',
  ".data.items[].qty *= 10",
  ".data.items[0].price |= . + 1",
  ".counts[] += 1",
  ".counts |= map(. * 2)",
  '.missing //= "filled"',
  '.data.note //= "none"',
  ".a.b.c = 1",
  ".counts[] |= empty",
  ".counts[1] |= empty",
  ".x = (1, 2)",
  ".counts[.counts | length] = 9",
  ".counts[-1] = 100",
  "(.data.items[] | select(.qty > 1) | .flag) = true",
  '.. |= (if type == "number" then . * 2 else . end)',
  "(.nested.a, .nested.list) |= length",
  ".nested.list[1:] = []",
  "to_entries | map(.value) ",
  // errors jq reports (the inline evaluator gives way)
  ".data.id.x",
  ".[0]",
  '.id + "x"',
  "{} - 1",
  ".attempts / 0",
  ".attempts % 0",
  "5 | .[]",
  "[limit(-1; 1, 2)]",
  '"abc" | test("b")',
  "def f: 1; f",
  "$__loc__",
  "input",
  "label $out | 1, break $out",
  "[.[] | tostring]",
  "1.0 | tostring",
  "[1e1000] | tojson",
  "infinite",
  "ltrimstr(1)",
  ".counts | reverse",
  "null | reverse",
  "[last(.counts[])]",
  "[last(empty)]",
  "[nth(2; .counts[])]",
  "[nth(9; .counts[])]",
  "[range(0; 10; 3)]",
  "[range(5; 0; -2)]",
  "[range(0, 1; 3, 4)]",
  "[range(0.5; 3)]",
  "IN(.counts[]; 2, 9)",
  'has("id", "nope")',
  '.name | ltrimstr("")',
  '.name | rtrimstr("")',
  '.counts | rtrimstr("x")',
  '[.[] | .a? // "none"]',
  "1 | .a.b?",
  "[.[] | .[]?]",
  "[..[]?]",
  // jq 1.8.2's grammar: a binding's source is everything tighter than ',', prefix '-' takes a term
  "1 + 2 as $x | $x * 10",
  "[1, 2 as $x | 10]",
  ".id // 0 as $x | $x",
  "-null * null",
  "[-(.counts[]) * 2]",
  "-.id + 1",
  "--1",
  "reduce .counts[] | . * 2 as $x (0; . + $x)",
  "[reduce .counts[] as $x (0; if $x > 2 then empty else . + $x end)]",
  "[foreach .counts[] as $x (0; if $x > 2 then empty else . + $x end)]",
  '[paths(type == "object")]',
  "{} | reverse",
  "0 | reverse",
  'null | has("a")',
  "[-(0), -(0 + 0)]",
];

/** Programs of the subset, answered inline on at least one input; grammar corners included. */
const SUBSET = [
  ".",
  ".data.customer.email",
  '.data."customer".name',
  '."data".id',
  '.["data"]["items"][0]',
  ".data.items[-1].sku",
  ".data.items.[1]",
  ".data .items [0] .sku",
  ".data.items[].tags[]",
  "[.data.items[].tags[]?]",
  "[.[]?]",
  "[.[]?.a?]",
  ".counts[.id - 41]",
  ".counts[(0, 2)]",
  "[.data.items[(0, 1)].qty]",
  "{type, orderId: .data.id, email: .data.customer.email, lines: [.data.items[] | {sku, qty, total: (.qty * .price)}]}",
  '{"a b": 1, if: 2, and: 3, null: 4}',
  '{"type", attempts}',
  "{(.type): 1}",
  "{(.type, .data.id): (1, 2)}",
  "[{a: (1, 2), b: (3, 4)}]",
  "{a: 1 + 2 | . * 3, b: .x // -1}",
  "{a: .data.items | length, b: -1 - 2}",
  "{a: 1, a: 2}",
  ". as $o | {id: $o.data.id, $o}",
  "[.data.items[] as $i | $i.sku]",
  "1 as $x | 2 as $y | [$x, $y, $x + $y]",
  "[1, 2 as $x | 10]",
  "1 + 2 as $x | $x * 10",
  "(.counts | length) as $n | [.counts[] | . * $n]",
  "[.counts[] | . % 3, -. % 3, . % -3]",
  "[5.5 % 2, -5 % 3, 5 % -3, 1e3 / 8]",
  "[(1, 2) + (10, 20)]",
  "[(1, 2) * (3, 4)]",
  "[-(1, 2)]",
  "-.attempts + 1",
  "--1",
  ".data + {extra: true}",
  ".counts + [9]",
  '.name + "!" + .name',
  "null + .attempts",
  "[1, 2] == [1, 2] and {a: 1, b: 2} == {b: 2, a: 1}",
  '[null < false, false < true, true < 0, 0 < "", "" < [], [] < {}]',
  "[{a: 1} < {a: 2}, {a: 2} < {b: 1}, [1, 2] < [1, 3], [1] < [1, 0]]",
  '["a" < "b", "B" < "a", "é" > "e", "" < "a"]',
  "[.counts[] >= 2]",
  "[(true, false) and (true, false)]",
  "[(true, false) or (true, false)]",
  "[(null, 1) // (2, 3)]",
  "[(null, false) // (2, 3)]",
  "[.[] // 0]",
  ".missing // .also.missing // 5",
  "false or .missing.x",
  "[.[] | not]",
  ".data.items | map(select(.qty > 1) | {sku, qty})",
  ".data.items | map(.tags | length)",
  "[.counts[] | select(. > 1)]",
  "[.[] | select(. == null or . == 1)]",
  "map(. == 1)",
  "keys",
  ".data | keys",
  "[.[] | length]",
  ".name | length",
  "length",
  "empty",
  "[empty]",
  "[.[] | empty]",
  "select(false)",
  ".a?, .b?",
  ".data.items[] | .sku",
  "(.data.items[] | .sku), .type",
  "[.data.items[] | {sku} | .sku]",
  ".counts | [.[0] + .[1], .[-1] - .[0], .[2] * .[3], .[0] / .[2]]",
  ".if, .and, .null",
  "{if, then, null, true}",
  '.data.["items"][0]',
  ".data?.items",
  '."data"?.id',
  "[.data.items[]?[]?]",
  "[.[]?[]?]",
  "-.attempts?",
  "{a:-1,b:-.attempts}",
  '{"a":.data|.id}',
  ".a//.attempts",
  "1 as $x|2 as $x|$x",
  ". as $x | [$x, .] | length",
  "{(.data.id,.data.customer.name):1}",
  '.["data", "name"]',
  '.data[.missing // "id"]',
  "# a comment\n.data.id # another",
  '["\\u00e9", "\\t", "\\/", "\\"", "\\\\"]',
  "[.counts[] | . / 2 | . * 4 - 1]",
  "[.nested.list[] | {(.k): .v}]",

  "[.data.items[] | .qty * .price] | .[0] + .[1] + .[2]",
];

describe("inline jq agrees with jq 1.8", () => {
  it("on the curated programs, and answers most of them itself", () => {
    const tally: Tally = { inline: 0, gaveWay: 0, differences: [] };
    for (const program of PROGRAMS) for (const input of INPUTS) check(program, input, tally);
    expect(tally.differences.slice(0, 40)).toEqual([]);
  });

  it("on the subset's programs, which it answers", () => {
    const tally: Tally = { inline: 0, gaveWay: 0, differences: [] };
    for (const program of SUBSET) for (const input of INPUTS) check(program, input, tally);
    expect(tally.differences.slice(0, 40)).toEqual([]);
    const neverAnswered = SUBSET.filter((program) =>
      INPUTS.every((input) => inline.run(program, JSON.parse(input), input) === undefined),
    );
    expect(neverAnswered).toEqual([]);
  });

  it("on random programs and inputs (seeded)", () => {
    const random = mulberry32(Number(process.env.INLINE_JQ_SEED ?? 20261125));
    const tally: Tally = { inline: 0, gaveWay: 0, differences: [] };
    const cases = Number(process.env.INLINE_JQ_CASES ?? 2500);
    for (let index = 0; index < cases; index++) {
      const program = randomProgram(random, 3, []);
      const input = JSON.stringify(randomValue(random, 3));
      check(program, input, tally);
    }
    expect(tally.differences.slice(0, 20)).toEqual([]);
    // Random programs often fail on random inputs (jq answers those); enough must run inline.
    expect(tally.inline).toBeGreaterThan(cases * 0.3);
  });
});

describe("inline jq leaves to jq", () => {
  const run = (program: string, json: string, options = {}) =>
    createInlineJq(options).run(program, JSON.parse(json), json);

  it.each<[string, string, string]>([
    ["a number jq keeps exactly", ".id", '{"id": 12345678901234567}'],
    ["a long number with a fraction", ".p", '{"p": 123456789.0123456789}'],
    ["a huge exponent", ".p", '{"p": 1e400}'],
    ["an array-index-like key (JavaScript reorders it)", ".b", '{"b": 1, "1": 2}'],
    ["a __proto__ key", ".a", '{"__proto__": {"x": 1}, "a": 1}'],
    ["an escaped surrogate", ".a", '{"a": "\\ud83d\\ude00"}'],
    ["a program outside the subset", "def f: .; f", "{}"],
    ["string interpolation", '"\\(.a)"', '{"a": 1}'],
    ["a builtin outside the subset", "tostring", "{}"],
    ["a long number literal", ".a == 12345678901234567", '{"a": 1}'],
    ["a constant object key jq rejects when it compiles", "empty | {(1): 2}", "{}"],
    ["a syntax error", "{a:", "{}"],
    ["a jq error", ".a.b", '{"a": 1}'],
    ["a jq error after the first output", ".a[] | .b", '{"a": [{"b": 1}, 2]}'],
    ["a constructed array-index-like key", "{(.k): 1}", '{"k": "7"}'],
    ["a result that is not finite", ".a * .a", '{"a": 1e200}'],
    ["a fractional index", ".a[0.5]", '{"a": [1, 2]}'],
    ["an order of strings past U+D7FF", '.a < "b"', '{"a": "\uffff"}'],
    [
      "a program nested past what its parser can take",
      `${"[".repeat(5000)}.${"]".repeat(5000)}`,
      "{}",
    ],
    ["an output nested past what can be measured", ".", `${"[".repeat(20000)}${"]".repeat(20000)}`],
  ])("%s", (_name, program, json) => {
    expect(run(program, json)).toBeUndefined();
  });

  it("answers inputs whose strings hold digits that look like long numbers", () => {
    const json = '{"sid": "SM4525424e404f", "hex": "1234567890123456789", "p": 1.50}';
    expect(run("[.sid, .hex, .p]", json)).toEqual({
      ok: true,
      output: ["SM4525424e404f", "1234567890123456789", 1.5],
    });
  });

  it("leaves inputs above its size to jq", () => {
    const json = JSON.stringify({ text: "x".repeat(100) });
    expect(run(".text | length", json, { maxInputChars: 50 })).toBeUndefined();
    expect(run(".text | length", json, { maxInputChars: 500 })).toEqual({ ok: true, output: 100 });
  });

  it("leaves an output that could come near the limit to jq, which reports it", () => {
    const program = '[.a[] | "xxxxxxxxxx"]';
    const json = (count: number) => JSON.stringify({ a: Array.from({ length: count }, () => 0) });
    expect(run(program, json(100), { maxOutputBytes: 500 })).toBeUndefined();
    expect(run(program, json(5), { maxOutputBytes: 500 })).toMatchObject({ ok: true });
  });

  it("gives up on work past its budget, and sends that program to jq from then on", () => {
    const inline = createInlineJq({ budget: 1_000 });
    const array = (count: number) => ({ a: Array.from({ length: count }, (_, index) => index) });
    const runOn = (program: string, payload: unknown) =>
      inline.run(program, payload, JSON.stringify(payload));
    const program = "[.a[] as $x | .a[] | $x] | length";
    expect(runOn(program, array(3))).toEqual({ ok: true, output: 9 });
    const binds = Array.from({ length: 30 }, (_, index) => `(1, 1) as $v${index}`).join(" | ");
    const doubling = Array.from({ length: 30 }, () => "(. + .)").join(" | ");
    for (const hostile of [
      "[.a[] as $x | .a[] as $y | .a[] | [$x, $y, .]] | length",
      "[{a: .a[], b: .a[], c: .a[]}] | length",
      "[(.a[] + .a[]) * (.a[] - .a[])] | length",
      `[${binds} | empty]`,
      `.s | ${doubling} | length`,
      "[.a[] as $x | .a | select(. == [.[] | $x])] | length",
    ]) {
      expect(runOn(hostile, { ...array(300), s: "x".repeat(100) })).toBeUndefined();
    }
    expect(runOn(program, array(1000))).toBeUndefined();
    expect(runOn(program, array(3))).toBeUndefined();
  });

  it("answers a program that outputs nothing as jq does", () => {
    expect(run("empty", "{}")).toEqual({ ok: false, error: "jq program produced no output" });
    expect(run(".a[] | select(. > 5)", '{"a": [1, 2]}')).toEqual({
      ok: false,
      error: "jq program produced no output",
    });
  });
});

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const KEYS = ["a", "b", "c"];
const STRINGS = ["a", "b", "", "ab", "A,b", "é", "😀x"];

function randomValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth <= 0 || roll < 0.45) {
    return pick(random, [null, true, false, 0, 1, 2, -3, 10, 0.5, -0, ...STRINGS]);
  }
  if (roll < 0.7) {
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
  }
  const object: Record<string, unknown> = {};
  for (const key of KEYS) if (random() < 0.6) object[key] = randomValue(random, depth - 1);
  return object;
}

/** A random jq program of the subset (and a few forms beyond it), parenthesized where jq needs it. */
function randomProgram(random: () => number, depth: number, vars: string[]): string {
  const leaf = () =>
    pick(random, [
      ".",
      ".a",
      ".b",
      ".c?",
      ".[0]",
      ".[-1]",
      ".[]",
      ".[]?",
      ".a?",
      ".a.b",
      '."b"',
      ".[1:]",
      "1",
      "2",
      "-1",
      "0.5",
      '"a"',
      '"b"',
      "null",
      "true",
      "false",
      "[]",
      "{}",
      "length",
      "keys",
      "not",
      "empty",
      "tostring",
      "type",
      ...vars.map((name) => `$${name}`),
    ]);
  if (depth <= 0 || random() < 0.3) return leaf();
  const sub = () => randomProgram(random, depth - 1, vars);
  const op = pick(random, [
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "and",
    "or",
    "//",
  ]);
  const name = pick(random, ["x", "y", "z"]);
  const key = pick(random, KEYS);
  switch (Math.floor(random() * 26)) {
    case 0:
    case 1:
      return `(${sub()}) ${op} (${sub()})`;
    case 2:
      return `${sub()} ${op} ${sub()}`;
    case 3:
    case 4:
      return `${sub()} | ${sub()}`;
    case 5:
      return `${sub()}, ${sub()}`;
    case 6:
      return `[${sub()}]`;
    case 7:
      return `{a: (${sub()}), ${key}: ${sub()}}`;
    case 8:
      return `{${key}, "${pick(random, KEYS)}": (${sub()})}`;
    case 9:
      return `{(${sub()}): ${sub()}}`;
    case 10:
      return `map(${sub()})`;
    case 11:
    case 12:
      return `select(${sub()})`;
    case 13:
      return `(${sub()}) as $${name} | ${randomProgram(random, depth - 1, [...vars, name])}`;
    case 14:
      return `${sub()} as $${name} | ${randomProgram(random, depth - 1, [...vars, name])}`;
    case 15:
      return `{$${name}: 1, b: 2}`;
    case 16:
      return `-(${sub()})`;
    case 17:
      return `(${sub()})${pick(random, [".a", ".b?", "[0]", "[]?", ".a.b?", "[]", ".[1]", '."c"?'])}`;
    case 18:
      return `(${sub()})[${sub()}]`;
    case 19:
      return `[.[] | ${sub()}]`;
    case 20:
      return `(${sub()}) ${op} ${sub()} ${op} ${sub()}`;
    case 21:
      return `{${key}: ${sub()} | ${sub()}}`;
    case 22:
      return `if ${sub()} then ${sub()} else ${sub()} end`;
    case 23:
      return `try (${sub()}) catch .`;
    case 24:
      return `(${sub()})?`;
    default:
      return `reduce (${sub()}) as $${name} (0; ${randomProgram(random, depth - 1, [...vars, name])})`;
  }
}
