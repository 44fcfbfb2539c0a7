import type { PipelineRecord } from "@hookflow/db";
import { pendingPipeline } from "./run-fresh-pipeline.js";

const record = {
  state: { claimed: true },
  deliveryBody: null,
  steps: [],
} as unknown as PipelineRecord;

function counted() {
  let writes = 0;
  const pending = pendingPipeline(record, async () => {
    writes += 1;
  });
  return { pending, writes: () => writes };
}

describe("pending graph result", () => {
  it("is taken once, by the first statement", () => {
    const { pending } = counted();
    expect(pending.take()).toBe(record);
    expect(pending.take()).toBeUndefined();
  });

  it("is not written again after a delivery that went well with it", async () => {
    const { pending, writes } = counted();
    pending.take();
    await pending.settle(false);
    expect(writes()).toBe(0);
  });

  it("is written alone when no statement took it", async () => {
    const { pending, writes } = counted();
    await pending.settle(false);
    await pending.settle(false);
    expect(writes()).toBe(1);
  });

  it("is written again after a failed delivery, as its statement may not have committed", async () => {
    const { pending, writes } = counted();
    pending.take();
    await pending.settle(true);
    expect(writes()).toBe(1);
  });
});
