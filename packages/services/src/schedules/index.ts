export {
  listScheduledWorkflowRuns,
  type ScheduledWorkflowRun,
} from "./list-scheduled-workflow-runs.js";
