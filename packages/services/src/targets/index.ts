export { createTarget } from "./create-target.js";
export { deleteTarget } from "./delete-target.js";
export { getTarget } from "./get-target.js";
export { listTargets } from "./list-targets.js";
export type { AdditionalTarget, TargetFields } from "./target-records.js";
export { updateTarget } from "./update-target.js";
