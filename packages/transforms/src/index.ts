export { TransformRunnerOptions } from "./options.js";
export {
  createTransformRunner,
  type PatternMatchResult,
  type TransformRunner,
} from "./transform-runner.js";
export {
  TRANSFORM_MODES,
  type TransformContext,
  type TransformInput,
  type TransformMode,
  type TransformResult,
} from "./types.js";
