export type {
  PipelineDone,
  PipelineParked,
  PipelineStep,
  StepMessage,
} from "@hookflow/pipeline";
export * from "./step-entry.js";
export * from "./step-hub.js";
export * from "./step-publisher.js";
export * from "./webhook-feed.js";
