// The inline evaluator on real-world webhook programs (Stripe, GitHub, Shopify, Twilio payloads):
// each program it answers must get jq's own answer, output or error, on every payload of the
// corpus; the programs of the subset are answered inline on their own payload, and the others
// (outside the subset, jq errors, payloads jq reads differently) give way to jq.
import { readFileSync } from "node:fs";
import { createInlineJq } from "../src/jq/inline/inline-jq.js";
import { loadReferenceJq, referenceJq } from "./jq-reference.js";

interface Corpus {
  payloads: Record<string, unknown>;
  programs: { program: string; payload: string; inline: boolean }[];
}

const corpus = JSON.parse(
  readFileSync(new URL("./fixtures/jq-corpus.json", import.meta.url), "utf8"),
) as Corpus;
const payloads = Object.entries(corpus.payloads).map(([name, payload]) => ({
  name,
  payload,
  json: JSON.stringify(payload),
}));
const inline = createInlineJq();

beforeAll(loadReferenceJq);

describe("the real-world jq corpus", () => {
  it("has enough programs, both in the subset and outside it", () => {
    expect(corpus.programs.length).toBeGreaterThanOrEqual(60);
    expect(corpus.programs.filter((entry) => entry.inline).length).toBeGreaterThanOrEqual(60);
    expect(corpus.programs.filter((entry) => !entry.inline).length).toBeGreaterThanOrEqual(30);
  });

  it("gets jq's answer for every program it answers, on every payload", () => {
    const differences: string[] = [];
    let answered = 0;
    for (const { program } of corpus.programs) {
      for (const { name, payload, json } of payloads) {
        const answer = inline.run(program, payload, json);
        if (answer === undefined) continue;
        answered++;
        const expected = referenceJq(program, json);
        if (JSON.stringify(answer) !== JSON.stringify(expected)) {
          differences.push(
            `${program} on ${name}\n  inline: ${JSON.stringify(answer)}\n  jq:     ${JSON.stringify(expected)}`,
          );
        }
      }
    }
    expect(differences).toEqual([]);
    expect(answered).toBeGreaterThan(corpus.programs.length);
  });

  it("answers the subset's programs inline and leaves the rest to jq", () => {
    const unexpected = corpus.programs
      .filter(({ program, payload, inline: expected }) => {
        const json = JSON.stringify(corpus.payloads[payload]);
        return (inline.run(program, corpus.payloads[payload], json) !== undefined) !== expected;
      })
      .map(
        ({ program, payload, inline: expected }) =>
          `${expected ? "gave way" : "answered"}: ${program} on ${payload}`,
      );
    expect(unexpected).toEqual([]);
  });
});
