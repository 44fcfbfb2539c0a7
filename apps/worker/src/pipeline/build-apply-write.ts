import type { EventPipelineUpdate, PipelineApplyWrite } from "@hookflow/db";
import { newId, newPrefixedId } from "@hookflow/domain";
import {
  type ApplyPlan,
  EMPTY_PIPELINE_STATE,
  type PlannedPark,
  type StepDraft,
  stepJson,
} from "@hookflow/pipeline";
import { STEP_PAYLOAD_LIMIT_BYTES } from "../steps/step-reporter.js";

/** Prefix of park ids (`prk_01J...`). */
const PARK_ID_PREFIX = "prk";

/** What a child event of the same webhook carries: the graph already ran for it (skipped). */
const SKIP_GRAPH_STATE = { ...EMPTY_PIPELINE_STATE, claimed: true };

/** The engine's continuation data kept with a park. */
export interface StoredParkState {
  path: { id: string; body: string | null };
  engine: Record<string, unknown>;
}

export interface ApplyContext {
  eventId: string;
  webhookId: string;
  eventType: string | null;
  runId: string | null;
  /** The event's raw body: what a path delivers while no node changed it. */
  rawBody: string;
  now: Date;
}

/** A park as stored, with the id the worker gave it (for its resume job and email). */
export interface StoredPark {
  id: string;
  planned: PlannedPark;
}

export interface BuiltWrite {
  write: Omit<PipelineApplyWrite, "eventId" | "now" | "freshOnly">;
  parks: StoredPark[];
}

const CLEARED = { awaitingApproval: false, awaitingMerge: false, delayed: false, parkedAt: null };

function eventUpdate(plan: ApplyPlan, ctx: ApplyContext): EventPipelineUpdate {
  const update: EventPipelineUpdate = {
    pipelineState: plan.state,
    ...(ctx.runId ? { pipelineRun: ctx.runId } : {}),
  };
  switch (plan.event.kind) {
    case "deliver":
      return {
        ...update,
        ...(plan.event.body === null ? {} : { deliveryBody: plan.event.body }),
        flags: CLEARED,
        nextAttemptAt: ctx.now,
      };
    case "unchanged":
      return update;
    case "parked": {
      const { kind: _kind, ...flags } = plan.event;
      return { ...update, flags };
    }
    case "settle":
      return {
        ...update,
        status: plan.event.status,
        lastError: plan.event.lastError,
        flags: CLEARED,
        nextAttemptAt: null,
      };
  }
}

/** Turns a plan and the run's steps into one apply statement's rows. */
export function buildApplyWrite(
  plan: ApplyPlan,
  steps: StepDraft[],
  ctx: ApplyContext,
): BuiltWrite {
  const parks: StoredPark[] = plan.parks.map((planned) => ({
    id: newPrefixedId(PARK_ID_PREFIX),
    planned,
  }));
  const children = plan.children.map((child) => ({
    id: newId("event"),
    webhookId: ctx.webhookId,
    eventType: ctx.eventType,
    body: child.body ?? ctx.rawBody,
    pipelineState: SKIP_GRAPH_STATE,
    forward: false,
  }));
  const forwards = plan.forwards.map((forward) => ({
    id: newId("event"),
    webhookId: forward.webhookId,
    eventType: ctx.eventType,
    body: forward.body ?? ctx.rawBody,
    pipelineState: null,
    forward: true,
  }));
  return {
    parks,
    write: {
      event: eventUpdate(plan, ctx),
      // The text each step streamed with (written once by `stepJson`) is its stored element.
      steps: steps.map((step) => stepJson(ctx.eventId, step, STEP_PAYLOAD_LIMIT_BYTES)),
      parks: parks.map(({ id, planned: { outcome, status } }) => {
        const state: StoredParkState = {
          path: { id: outcome.pathId, body: outcome.body },
          engine: outcome.state,
        };
        return {
          id,
          webhookId: ctx.webhookId,
          runId: ctx.runId,
          nodeType: outcome.nodeType,
          nodeId: outcome.nodeId,
          kind: outcome.park,
          payload: JSON.stringify(outcome.payload ?? null),
          state: state as unknown as Record<string, unknown>,
          status,
          resumeAt: new Date(outcome.resumeAt),
        };
      }),
      newEvents: [...children, ...forwards],
      resolveMerges: plan.resolveMerges,
    },
  };
}
