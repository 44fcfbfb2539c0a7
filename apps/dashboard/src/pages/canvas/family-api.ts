import { type Api, call } from "../../api/client";
import type { NodeRecord } from "./graph-model";
import type { NodeFamily } from "./node-families";

interface Init {
  params?: { path?: Record<string, string>; query?: Record<string, string | number> };
  body?: unknown;
}
type Verb = (
  path: string,
  init?: Init,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * The shared client addressed by a family discovered at run time: its paths come from the
 * OpenAPI document (`/api/<segment>`), so they cannot be literal types here.
 */
function loose(api: Api): Record<"GET" | "POST" | "PATCH" | "DELETE", Verb> {
  return api as unknown as Record<"GET" | "POST" | "PATCH" | "DELETE", Verb>;
}

export const familyApi = {
  list: (api: Api, family: NodeFamily) =>
    call(
      loose(api).GET(`/api/${family.segment}`, { params: { query: { limit: 100 } } }),
    ) as Promise<NodeRecord[]>,
  create: (api: Api, family: NodeFamily, body: unknown) =>
    call(loose(api).POST(`/api/${family.segment}`, { body })) as Promise<NodeRecord>,
  update: (api: Api, family: NodeFamily, id: string, body: unknown) =>
    call(
      loose(api).PATCH(`/api/${family.segment}/{id}`, { params: { path: { id } }, body }),
    ) as Promise<NodeRecord>,
  remove: (api: Api, family: NodeFamily, id: string) =>
    call(loose(api).DELETE(`/api/${family.segment}/{id}`, { params: { path: { id } } })),
};
