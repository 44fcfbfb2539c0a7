import { createTransformRunnerPort } from "@hookflow/pipeline";
import { createTransformRunner } from "@hookflow/transforms";
import { renderSimpleTemplate } from "./render-templates.js";

const context = {
  payload: {
    id: "A-1",
    n: 0,
    ok: false,
    yes: true,
    none: null,
    list: [1, "b", null],
    obj: { a: 1 },
    html: "<b>&</b>",
    nested: { deep: { value: 12.5 } },
  },
  response: { status: 200, body: { ref: "r" } },
  event: { id: "evt_1", type: null },
  webhook: { id: "wh_1", name: "orders" },
};

describe("simple templates render as Handlebars renders them", () => {
  const runner = createTransformRunner();
  const port = createTransformRunnerPort(runner);
  afterAll(() => runner.close());

  it.each([
    "Order {{payload.id}}",
    "{{ payload.id }}/{{payload.n}}/{{payload.ok}}/{{payload.yes}}/{{payload.none}}",
    "{{payload.list}} and {{payload.obj}}",
    "{{payload.missing}}|{{payload.missing.deeper}}|{{payload.none.deeper}}",
    "{{payload.html}} {{payload.nested.deep.value}}",
    "{{response.status}} {{response.body.ref}} {{event.id}} {{event.type}} {{webhook.name}}",
    "{{payload.constructor}}{{payload.__proto__}}",
    "text { with } single braces {{payload.id}}",
  ])("%s", async (template) => {
    const handlebars = await port.run({
      mode: "handlebars",
      template,
      payload: context,
      context: { eventId: "e", webhookId: "w", eventType: null, nodeId: "n", nodeName: "n" },
    });
    expect(handlebars.ok).toBe(true);
    expect(renderSimpleTemplate(template, context)).toBe(handlebars.ok ? handlebars.body : "");
  });

  it.each([
    "{{#if payload.ok}}x{{/if}}",
    "{{{payload.html}}}",
    "{{upper payload.id}}",
    "{{payload.[0]}}",
    "{{!-- c --}}",
    "\\{{payload.id}}",
    "{{payload.id.length}}",
  ])("leaves %s to Handlebars", (template) => {
    expect(renderSimpleTemplate(template, context)).toBeUndefined();
  });
});
