import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { useToast } from "../../ui/toast";
import type { GraphEdge, GraphNode } from "./graph-model";
import { snapshotInput } from "./snapshot-flow";

/** The organization's saved canvas snapshots, and saving the canvas as drawn as a new one. */
export function useCanvasSnapshots(
  graph: { nodes: GraphNode[]; edges: GraphEdge[] },
  positionOf: (id: string) => { x: number; y: number },
) {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const snapshots = useQuery({
    queryKey: ["snapshots", organizationId],
    queryFn: () => call(api.GET("/api/canvas-snapshots", { params: { query: { limit: 100 } } })),
  });
  const saveSnapshot = useMutation({
    mutationFn: (name: string) =>
      call(api.POST("/api/canvas-snapshots", { body: snapshotInput(name, graph, positionOf) })),
    onSuccess: (s) => {
      toast(`Snapshot ${s.name} saved`);
      void queryClient.invalidateQueries({ queryKey: ["snapshots"] });
    },
    onError: (e: unknown) => toast(messageOf(e), "error"),
  });
  return { snapshots, saveSnapshot };
}

export type CanvasSnapshots = ReturnType<typeof useCanvasSnapshots>;
