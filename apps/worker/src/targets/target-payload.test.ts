import { compileJsonTemplate, type TemplateNode } from "@hookflow/domain";
import { targetPayload, templateContext } from "./target-payload.js";

function template(source: string): TemplateNode {
  const compiled = compileJsonTemplate(source);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.template;
}

const payload = { type: "order.created", amount: 42.5, order: { id: "o-1", tags: ["a", "b"] } };
const body = JSON.stringify(payload);

describe("targetPayload", () => {
  it("skips a target whose filters do not match", () => {
    const target = { filters: [{ field: "type", operator: "eq", value: "x" }], template: null };
    expect(targetPayload(target, payload, body, 1000)).toEqual({ kind: "skip" });
  });

  it("sends the body unchanged without a template", () => {
    const target = { filters: [{ field: "amount", operator: "gt", value: "10" }], template: null };
    expect(targetPayload(target, payload, body, 1000)).toEqual({ kind: "send", body });
  });

  it("keeps JSON types for exact placeholders and interpolates text inside strings", () => {
    const target = {
      filters: [],
      template: template(
        '{"order": "{{order}}", "amount": "{{amount}}", "line": "#{{order.id}}: {{order.tags}}", "same": "{{payload.order.id}}", "missing": "{{nope}}"}',
      ),
    };
    const result = targetPayload(target, payload, body, 1000);
    expect(result.kind).toBe("send");
    if (result.kind !== "send") return;
    expect(JSON.parse(result.body)).toEqual({
      order: { id: "o-1", tags: ["a", "b"] },
      amount: 42.5,
      line: '#o-1: ["a","b"]',
      same: "o-1",
      missing: null,
    });
  });

  it("escapes hostile values so the output is always valid JSON", () => {
    const hostile = { name: '"}, "admin": true, "x": "\\u0000' };
    const target = { filters: [], template: template('{"greeting": "hi {{name}}"}') };
    const result = targetPayload(target, hostile, JSON.stringify(hostile), 1000);
    if (result.kind !== "send") throw new Error("expected a body");
    expect(JSON.parse(result.body)).toEqual({ greeting: `hi ${hostile.name}` });
  });

  it("fails the target, not the event, when the rendering passes the bound", () => {
    const big = { blob: "x".repeat(600) };
    const target = { filters: [], template: template('["{{blob}}", "{{blob}}"]') };
    const result = targetPayload(target, big, JSON.stringify(big), 1000);
    expect(result).toEqual({
      kind: "fail",
      error: "payloadTransform: the rendered payload is longer than 1000 characters",
    });
  });
});

describe("templateContext", () => {
  it("offers the payload's fields at the root and as payload, unless the payload has its own", () => {
    expect(templateContext({ a: 1 })).toEqual({ a: 1, payload: { a: 1 } });
    expect(templateContext({ payload: "mine" })).toEqual({ payload: "mine" });
    expect(templateContext([1, 2])).toEqual({ payload: [1, 2] });
    expect(templateContext("text")).toEqual({ payload: "text" });
  });
});
