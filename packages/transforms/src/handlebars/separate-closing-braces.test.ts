import { separateClosingBraces } from "./separate-closing-braces.js";

describe("separateClosingBraces", () => {
  it.each([
    ['{"n": {{n}}}', '{"n": {{n}}{{!}}}'],
    ['{"a": {"b": {{b}}}}', '{"a": {"b": {{b}}{{!}}}}'],
    ['{"raw": {{{raw}}}}', '{"raw": {{{raw}}}{{!}}}'],
    ['{"j": {{json (lookup this "}}")}}}', '{"j": {{json (lookup this "}}")}}{{!}}}'],
    ['{"n": {{n~}}}', '{"n": {{n~}}{{!}}}'],
    ['{"s": "{{s}}"}', '{"s": "{{s}}"}'],
    ["{{! a comment }}}", "{{! a comment }}}"],
    ["{{!-- }} --}}}", "{{!-- }} --}}}"],
    ["\\{{n}}}", "\\{{n}}}"],
    ["{{{{raw}}}} x {{{{/raw}}}}", "{{{{raw}}}} x {{{{/raw}}}}"],
    ["{{#each a}}{{this}}{{/each}}", "{{#each a}}{{this}}{{/each}}"],
    ["{{unclosed", "{{unclosed"],
  ])("rewrites %j as %j", (source, expected) => {
    expect(separateClosingBraces(source)).toBe(expected);
  });
});
