import { matchesAll, matchesAny } from "@hookflow/domain";
import type { FilterNodeConfig, RouterConfig } from "../families/definitions.js";

/** A filter node lets the payload through when its rules match (`and`: all, `or`: any). */
export function passesFilterNode(config: FilterNodeConfig, payload: unknown): boolean {
  return config.filterMode === "or"
    ? matchesAny(payload, config.filters)
    : matchesAll(payload, config.filters);
}

export type RouterRoute = RouterConfig["routes"][number];

/** The first route whose rule matches the payload, in order; undefined when none does. */
export function selectRoute(config: RouterConfig, payload: unknown): RouterRoute | undefined {
  return config.routes.find((route) => matchesAll(payload, [route]));
}
