import { parseStartArgs, resolveWorkerProcesses } from "./start-args.js";

describe("parseStartArgs", () => {
  it("runs every role when no role is given, worker processes chosen from the cores", () => {
    expect(parseStartArgs([])).toEqual({ role: "all", workerProcesses: "auto" });
  });

  it.each(["api", "ingress", "worker", "stream"])("accepts --role %s in both spellings", (role) => {
    expect(parseStartArgs(["--role", role])).toEqual({ role, workerProcesses: 0 });
    expect(parseStartArgs([`--role=${role}`])).toEqual({ role, workerProcesses: 0 });
  });

  it("accepts --role all as the default", () => {
    expect(parseStartArgs(["--role", "all"])).toEqual({ role: "all", workerProcesses: "auto" });
  });

  it("rejects an unknown role and names the valid ones", () => {
    expect(parseStartArgs(["--role", "scheduler"])).toEqual({
      error: "--role must be one of api, ingress, worker, stream (got scheduler)",
    });
    expect(parseStartArgs(["--role"])).toEqual({
      error: "--role must be one of api, ingress, worker, stream (got nothing)",
    });
  });

  it("takes --worker-processes as a count or auto, in both spellings", () => {
    expect(parseStartArgs(["--worker-processes", "0"])).toEqual({
      role: "all",
      workerProcesses: 0,
    });
    expect(parseStartArgs(["--worker-processes=3", "--role", "all"])).toEqual({
      role: "all",
      workerProcesses: 3,
    });
    expect(parseStartArgs(["--worker-processes", "auto"])).toEqual({
      role: "all",
      workerProcesses: "auto",
    });
  });

  it.each(["-1", "17", "1.5", "two", ""])("rejects --worker-processes %j", (value) => {
    expect(parseStartArgs(["--worker-processes", value])).toEqual({
      error: `--worker-processes must be auto or a whole number from 0 to 16 (got ${value || "nothing"})`,
    });
  });

  it("rejects --worker-processes with a single role", () => {
    expect(parseStartArgs(["--role", "ingress", "--worker-processes", "1"])).toEqual({
      error: "--worker-processes applies only to a start of every role (no --role)",
    });
  });

  it("rejects an unknown option", () => {
    expect(parseStartArgs(["--port", "3000"])).toEqual({
      error: "unknown option for start: --port",
    });
  });
});

describe("resolveWorkerProcesses", () => {
  it("runs the worker beside the http process when there is a second core", () => {
    expect(resolveWorkerProcesses("auto", 1)).toBe(0);
    expect(resolveWorkerProcesses("auto", 2)).toBe(1);
    expect(resolveWorkerProcesses("auto", 16)).toBe(1);
  });

  it("keeps an explicit count", () => {
    expect(resolveWorkerProcesses(0, 8)).toBe(0);
    expect(resolveWorkerProcesses(4, 1)).toBe(4);
  });
});
