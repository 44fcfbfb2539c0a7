import type { PayloadFilter } from "@hookflow/domain";
import {
  createDryRunPorts,
  type EnginePorts,
  type ParkDecision,
  type PathOutcome,
  type PatternPort,
  type PipelineGraph,
  type PipelineNode,
  type RunResult,
  runPipeline,
  type TransformPort,
} from "@hookflow/pipeline";

/** Parked paths one event's check resumes at most (delays, approvals); past it, not evaluated. */
const MAX_RESUMES_PER_EVENT = 100;

/** An event of the sample: its id, type and stored payload (and its text, when at hand). */
interface SampledEvent {
  id: string;
  eventType: string | null;
  payload: unknown;
  payloadText?: string;
}

/** What one validator did with the sampled events whose payload reached it. */
interface ValidatorTally {
  node: PipelineNode;
  /** Evaluated events whose payload reached the validator. */
  reached: number;
  /** Of those, the events it accepted (on every path that reached it). */
  accepted: number;
}

export interface ContractHealthTally {
  /** Events evaluated, newest first, until the budget ran out. */
  checked: number;
  /** Evaluated events no validator rejected. */
  passed: number;
  /** Events left out: the budget ran out before or during them, or their dry run broke. */
  notEvaluated: number;
  validators: ValidatorTally[];
}

export interface ContractHealthInput {
  webhookId: string;
  payloadFilters: readonly PayloadFilter[];
  /** The webhook's current graph and `reachableFrom(graph, webhookId)`. */
  graph: PipelineGraph;
  order: readonly string[];
  /** The schema validators on that graph, in graph order. */
  validators: readonly PipelineNode[];
  /** Newest first. */
  events: readonly SampledEvent[];
  transform: TransformPort;
  patterns: PatternPort;
  /** Epoch ms for the engine (park times; nothing waits). */
  now: () => number;
  delayScale: number;
  /** True once the request's time budget is spent: no further event (or resume) starts. */
  outOfTime: () => boolean;
  /** Told of each event whose dry run threw (it is counted as not evaluated). */
  onError?: (eventId: string, error: unknown) => void;
}

type Verdicts = Map<string, boolean>;
type Judged = { kind: "judged"; verdicts: Verdicts } | { kind: "not_evaluated" };

/** A parked path's dry-run continuation: delays go on, approvals are approved, merges wait. */
function resumeDecision(park: Extract<PathOutcome, { kind: "parked" }>): ParkDecision | undefined {
  switch (park.park) {
    case "delay":
    case "rateLimiter":
      return { kind: "continue" };
    case "approval":
      return { kind: "approved", auto: false };
    case "merge":
      // Waits for branches that have not arrived (an arrival that completes it goes on itself).
      return undefined;
  }
}

/**
 * Records what the validators did in one run: a validation failure rejects, a success step
 * accepts unless another path of the same event was rejected.
 */
function noteVerdicts(run: RunResult, validatorIds: ReadonlySet<string>, verdicts: Verdicts): void {
  for (const step of run.steps) {
    if (step.status === "success" && validatorIds.has(step.nodeId) && !verdicts.has(step.nodeId)) {
      verdicts.set(step.nodeId, true);
    }
  }
  for (const outcome of run.outcomes) {
    if (outcome.kind === "failed" && outcome.failure === "validation") {
      verdicts.set(outcome.nodeId, false);
    }
  }
}

/** Thrown by a transform asked for once the budget is spent: the event is not evaluated. */
class BudgetSpent extends Error {}

/**
 * The transform port, checking the budget before every transform: one event whose graph has
 * several slow transforms stops at the next one instead of running past the budget.
 */
function budgeted(input: ContractHealthInput): TransformPort {
  return {
    run: (call) => {
      if (input.outOfTime()) return Promise.reject(new BudgetSpent("the time budget is spent"));
      return input.transform.run(call);
    },
  };
}

/**
 * Runs one event through the dry-run engine (no side effects), resuming the paths that would
 * wait at a delay or approval, so each validator sees the payload that would reach it.
 */
async function judgeEvent(
  input: ContractHealthInput,
  event: SampledEvent,
  validatorIds: ReadonlySet<string>,
): Promise<Judged> {
  const ports: EnginePorts = createDryRunPorts({
    transform: budgeted(input),
    patterns: input.patterns,
    now: input.now,
    delayScale: input.delayScale,
  });
  const base = {
    eventId: event.id,
    webhookId: input.webhookId,
    eventType: event.eventType,
    runId: `contract-health:${event.id}`,
    graph: input.graph,
    order: input.order,
  };
  const verdicts: Verdicts = new Map();
  let run = await runPipeline(
    {
      ...base,
      start: {
        kind: "webhook",
        payload: event.payload,
        ...(event.payloadText === undefined ? {} : { payloadText: event.payloadText }),
        payloadFilters: input.payloadFilters,
      },
    },
    ports,
  );
  noteVerdicts(run, validatorIds, verdicts);
  const waiting = run.outcomes.filter((o) => o.kind === "parked");
  let resumes = 0;
  for (let park = waiting.shift(); park !== undefined; park = waiting.shift()) {
    const decision = resumeDecision(park);
    if (!decision) continue;
    resumes += 1;
    if (resumes > MAX_RESUMES_PER_EVENT || input.outOfTime()) return { kind: "not_evaluated" };
    run = await runPipeline(
      {
        ...base,
        start: {
          kind: "resume",
          nodeId: park.nodeId,
          park: park.park,
          path: { id: park.pathId, payload: park.payload, body: park.body },
          state: park.state,
          decision,
        },
      },
      ports,
    );
    noteVerdicts(run, validatorIds, verdicts);
    waiting.push(...run.outcomes.filter((o) => o.kind === "parked"));
  }
  return { kind: "judged", verdicts };
}

/**
 * Contract health (docs/decisions.md, "Node families and canvas"): each sampled event, newest first, runs through the
 * webhook's current graph in the dry-run engine time travel uses, and every schema validator is
 * judged on the payload that would reach it (after transforms, merges, filters). An event passes
 * when no validator rejects it; a validator's tally counts only the events that reach it. Events
 * are evaluated one at a time until `outOfTime`; the rest are counted as not evaluated.
 */
export async function checkContractHealth(
  input: ContractHealthInput,
): Promise<ContractHealthTally> {
  if (input.validators.length === 0) {
    // Nothing can reject an event: no dry run needed.
    const all = input.events.length;
    return { checked: all, passed: all, notEvaluated: 0, validators: [] };
  }
  const validatorIds = new Set(input.validators.map((node) => node.id));
  const tallies: ValidatorTally[] = input.validators.map((node) => ({
    node,
    reached: 0,
    accepted: 0,
  }));
  let checked = 0;
  let passed = 0;
  let notEvaluated = 0;
  for (const event of input.events) {
    if (input.outOfTime()) {
      notEvaluated += 1;
      continue;
    }
    let judged: Judged;
    try {
      judged = await judgeEvent(input, event, validatorIds);
    } catch (error) {
      if (!(error instanceof BudgetSpent)) input.onError?.(event.id, error);
      judged = { kind: "not_evaluated" };
    }
    if (judged.kind === "not_evaluated") {
      notEvaluated += 1;
      continue;
    }
    checked += 1;
    let rejected = false;
    for (const tally of tallies) {
      const verdict = judged.verdicts.get(tally.node.id);
      if (verdict === undefined) continue;
      tally.reached += 1;
      if (verdict) tally.accepted += 1;
      else rejected = true;
    }
    if (!rejected) passed += 1;
  }
  return { checked, passed, notEvaluated, validators: tallies };
}
