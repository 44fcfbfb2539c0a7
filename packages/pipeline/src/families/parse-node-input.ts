import { describeZodError, ValidationError } from "@hookflow/domain";
import { z } from "zod";
import { type InputNode, InputNodes, NodeName } from "./common.js";
import {
  FAMILIES,
  type FamilyConfig,
  type FamilyKey,
  familyOfNodeType,
  isActionFamily,
} from "./registry.js";

export interface NodeInput<F extends FamilyKey = FamilyKey> {
  name: string;
  inputNodes: InputNode[];
  config: FamilyConfig<F>;
}

const Common = z.object({ name: NodeName, inputNodes: InputNodes.default([]) });
const CommonPatch = z.object({ name: NodeName.optional(), inputNodes: InputNodes.optional() });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(error: z.ZodError): never {
  throw new ValidationError(describeZodError(error));
}

/** Config keys of a family: what a request may set besides name and inputNodes. */
function configKeys(key: FamilyKey): string[] {
  return Object.keys(FAMILIES[key].config.shape);
}

function pick(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

/**
 * Link rules of inputNodes: an action needs at least one input (a webhook or a node of its
 * graph), and no node takes an action as its input (actions feed nothing).
 */
function checkInputs(key: FamilyKey, inputNodes: readonly InputNode[]): void {
  if (isActionFamily(key) && inputNodes.length === 0) {
    throw new ValidationError("inputNodes: an action needs at least one input (a webhook or node)");
  }
  inputNodes.forEach((input, i) => {
    const family = familyOfNodeType(input.nodeType);
    if (family && isActionFamily(family)) {
      throw new ValidationError(
        `inputNodes.${i}.nodeType: an action cannot be the input of a node`,
      );
    }
  });
}

/**
 * A source family (a scheduled workflow) starts events itself: it has no inputs. A family whose
 * inputs follow from its config (a flow link) takes none from the body either.
 */
function checkSourceInputs(key: FamilyKey, inputNodes: readonly InputNode[]): void {
  const definition = FAMILIES[key];
  if (inputNodes.length === 0) return;
  if ("source" in definition) {
    throw new ValidationError(
      `inputNodes: a ${definition.nodeType} starts events itself and takes no inputs`,
    );
  }
  if ("inputsOf" in definition) {
    throw new ValidationError(
      `inputNodes: a ${definition.nodeType}'s input is its source (sourceNodeType, sourceNodeId)`,
    );
  }
}

/** The inputs a family derives from its config, else those given. */
function inputsFor<F extends FamilyKey>(
  key: F,
  config: FamilyConfig<F>,
  given: InputNode[],
): InputNode[] {
  const definition = FAMILIES[key] as { inputsOf?: (config: FamilyConfig<F>) => InputNode[] };
  return definition.inputsOf ? definition.inputsOf(config) : given;
}

/** A body with the family's default name filled in when it has one and none was given. */
function withDefaultName(key: FamilyKey, body: Record<string, unknown>): Record<string, unknown> {
  const definition: { defaultName?: string } = FAMILIES[key];
  return body.name === undefined && definition.defaultName
    ? { ...body, name: definition.defaultName }
    : body;
}

/** A create body: `name` required, defaults applied, every field validated (400 naming it). */
export function parseCreateNode<F extends FamilyKey>(key: F, body: unknown): NodeInput<F> {
  if (!isObject(body)) throw new ValidationError("Request body must be a JSON object");
  const common = Common.safeParse(withDefaultName(key, body));
  if (!common.success) fail(common.error);
  const definition = FAMILIES[key];
  checkSourceInputs(key, common.data.inputNodes);
  const config = definition.config.safeParse({
    ...definition.defaults,
    ...pick(body, configKeys(key)),
  });
  if (!config.success) fail(config.error);
  const parsed = config.data as FamilyConfig<F>;
  const inputNodes = inputsFor(key, parsed, common.data.inputNodes);
  checkInputs(key, inputNodes);
  return { name: common.data.name, inputNodes, config: parsed };
}

/**
 * A PATCH body over the stored node: only provided fields change, and the merged config is
 * validated whole, so a patch can never leave a node in a state a create would refuse.
 */
export function parseUpdateNode<F extends FamilyKey>(
  key: F,
  existing: NodeInput<F>,
  body: unknown,
): NodeInput<F> {
  if (!isObject(body)) throw new ValidationError("Request body must be a JSON object");
  const common = CommonPatch.safeParse(body);
  if (!common.success) fail(common.error);
  if (common.data.inputNodes) checkSourceInputs(key, common.data.inputNodes);
  const config = FAMILIES[key].config.safeParse({
    ...existing.config,
    ...pick(body, configKeys(key)),
  });
  if (!config.success) fail(config.error);
  const parsed = config.data as FamilyConfig<F>;
  const inputNodes = inputsFor(key, parsed, common.data.inputNodes ?? existing.inputNodes);
  checkInputs(key, inputNodes);
  return { name: common.data.name ?? existing.name, inputNodes, config: parsed };
}
