import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { messageOf } from "../../api/client";
import { useToast } from "../../ui/toast";
import { familyApi } from "./family-api";
import type { GraphNode, NodeRecord } from "./graph-model";
import type { NodeFamily } from "./node-families";

/** Create, update and delete the records of the canvas's nodes; each success refreshes them. */
export function useNodeMutations(on: {
  created: (record: NodeRecord) => void;
  removed: () => void;
}) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["family"] });
  const onError = (e: unknown) => toast(messageOf(e), "error");
  const create = useMutation({
    mutationFn: (v: { family: NodeFamily; body: unknown }) =>
      familyApi.create(api, v.family, v.body),
    onSuccess: (record) => {
      toast(`${record.name} added`);
      on.created(record);
      refresh();
    },
  });
  const patch = useMutation({
    mutationFn: (v: { node: GraphNode; body: unknown }) =>
      v.node.family
        ? familyApi.update(api, v.node.family, v.node.recordId, v.body)
        : Promise.reject(new Error("A webhook is edited on its own page")),
    onSuccess: () => refresh(),
    onError,
  });
  const remove = useMutation({
    mutationFn: (node: GraphNode) =>
      node.family ? familyApi.remove(api, node.family, node.recordId) : Promise.resolve(),
    onSuccess: () => {
      on.removed();
      refresh();
    },
    onError,
  });
  return { create, patch, remove, refresh };
}

export type NodeMutations = ReturnType<typeof useNodeMutations>;
