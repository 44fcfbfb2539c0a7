import { parseStartArgs } from "./start-args.js";

describe("parseStartArgs", () => {
  it("runs every role when no role is given", () => {
    expect(parseStartArgs([])).toEqual({ role: "all" });
  });

  it.each(["api", "ingress", "worker", "stream", "all"])(
    "accepts --role %s in both spellings",
    (role) => {
      expect(parseStartArgs(["--role", role])).toEqual({ role });
      expect(parseStartArgs([`--role=${role}`])).toEqual({ role });
    },
  );

  it("rejects an unknown role and names the valid ones", () => {
    expect(parseStartArgs(["--role", "scheduler"])).toEqual({
      error: "--role must be one of api, ingress, worker, stream (got scheduler)",
    });
    expect(parseStartArgs(["--role"])).toEqual({
      error: "--role must be one of api, ingress, worker, stream (got nothing)",
    });
  });

  it("rejects an unknown option", () => {
    expect(parseStartArgs(["--port", "3000"])).toEqual({
      error: "unknown option for start: --port",
    });
  });
});
