import type { BodyOf, ItemOf, OperationId, ResultOf } from "../operation-types.js";
import { iteratePages, type Page, type PageQuery, pageOfArray } from "../paging.js";
import { segment, type Transport } from "../transport.js";

/** The operationIds of a collection with list, create, get, update and delete. */
export interface CollectionOps {
  list: OperationId;
  create: OperationId;
  get: OperationId;
  update: OperationId;
  delete: OperationId;
}

/**
 * list (paged, total in X-Total-Count) / iterate / create / get / update / delete at
 * `/api/<collection>`: every node family and canvas snapshots share this shape. Types come from
 * the collection's operations in the OpenAPI document.
 */
export function collectionResource<Ops extends CollectionOps>(
  transport: Transport,
  collection: string,
) {
  type Item = ItemOf<Ops["list"]>;
  const base = `/api/${collection}`;
  const one = (id: string) => `${base}/${segment(id)}`;
  const list = async (query: PageQuery = {}): Promise<Page<Item>> => {
    const { data, response } = await transport.request<Item[]>("GET", base, {
      query: { ...query },
    });
    return pageOfArray(data, response, query);
  };
  return {
    list,
    iterate: (query: PageQuery = {}) => iteratePages(list, query),
    create: async (body: BodyOf<Ops["create"]>) =>
      (await transport.request<ResultOf<Ops["create"]>>("POST", base, { body })).data,
    get: async (id: string) => (await transport.request<ResultOf<Ops["get"]>>("GET", one(id))).data,
    update: async (id: string, body: BodyOf<Ops["update"]>) =>
      (await transport.request<ResultOf<Ops["update"]>>("PATCH", one(id), { body })).data,
    delete: async (id: string): Promise<void> => {
      await transport.request("DELETE", one(id));
    },
  };
}

interface Family<
  L extends OperationId,
  C extends OperationId,
  G extends OperationId,
  U extends OperationId,
  D extends OperationId,
> {
  list: L;
  create: C;
  get: G;
  update: U;
  delete: D;
}

/** The node families by their SDK name: the operations of each. */
interface NodeFamilies {
  routers: Family<"listRouters", "createRouter", "getRouter", "updateRouter", "deleteRouter">;
  filterNodes: Family<
    "listFilterNodes",
    "createFilterNode",
    "getFilterNode",
    "updateFilterNode",
    "deleteFilterNode"
  >;
  transformNodes: Family<
    "listTransformNodes",
    "createTransformNode",
    "getTransformNode",
    "updateTransformNode",
    "deleteTransformNode"
  >;
  schemaValidators: Family<
    "listSchemaValidators",
    "createSchemaValidator",
    "getSchemaValidator",
    "updateSchemaValidator",
    "deleteSchemaValidator"
  >;
  delayNodes: Family<
    "listDelayNodes",
    "createDelayNode",
    "getDelayNode",
    "updateDelayNode",
    "deleteDelayNode"
  >;
  mergeNodes: Family<
    "listMergeNodes",
    "createMergeNode",
    "getMergeNode",
    "updateMergeNode",
    "deleteMergeNode"
  >;
  approvalNodes: Family<
    "listApprovalNodes",
    "createApprovalNode",
    "getApprovalNode",
    "updateApprovalNode",
    "deleteApprovalNode"
  >;
  rateLimiterNodes: Family<
    "listRateLimiterNodes",
    "createRateLimiterNode",
    "getRateLimiterNode",
    "updateRateLimiterNode",
    "deleteRateLimiterNode"
  >;
}

const FAMILY_COLLECTIONS: { [F in keyof NodeFamilies]: string } = {
  routers: "routers",
  filterNodes: "filter-nodes",
  transformNodes: "transform-nodes",
  schemaValidators: "schema-validators",
  delayNodes: "delay-nodes",
  mergeNodes: "merge-nodes",
  approvalNodes: "approval-nodes",
  rateLimiterNodes: "rate-limiter-nodes",
};

export type NodeResources = {
  [F in keyof NodeFamilies]: ReturnType<typeof collectionResource<NodeFamilies[F]>>;
};

/** `client.nodes.filterNodes.create(...)`, one collection per node family. */
export function nodeResources(transport: Transport): NodeResources {
  return {
    routers: collectionResource<NodeFamilies["routers"]>(transport, FAMILY_COLLECTIONS.routers),
    filterNodes: collectionResource<NodeFamilies["filterNodes"]>(
      transport,
      FAMILY_COLLECTIONS.filterNodes,
    ),
    transformNodes: collectionResource<NodeFamilies["transformNodes"]>(
      transport,
      FAMILY_COLLECTIONS.transformNodes,
    ),
    schemaValidators: collectionResource<NodeFamilies["schemaValidators"]>(
      transport,
      FAMILY_COLLECTIONS.schemaValidators,
    ),
    delayNodes: collectionResource<NodeFamilies["delayNodes"]>(
      transport,
      FAMILY_COLLECTIONS.delayNodes,
    ),
    mergeNodes: collectionResource<NodeFamilies["mergeNodes"]>(
      transport,
      FAMILY_COLLECTIONS.mergeNodes,
    ),
    approvalNodes: collectionResource<NodeFamilies["approvalNodes"]>(
      transport,
      FAMILY_COLLECTIONS.approvalNodes,
    ),
    rateLimiterNodes: collectionResource<NodeFamilies["rateLimiterNodes"]>(
      transport,
      FAMILY_COLLECTIONS.rateLimiterNodes,
    ),
  };
}

export type CanvasSnapshotOps = Family<
  "listCanvasSnapshots",
  "createCanvasSnapshot",
  "getCanvasSnapshot",
  "updateCanvasSnapshot",
  "deleteCanvasSnapshot"
>;
