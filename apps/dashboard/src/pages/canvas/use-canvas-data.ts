import { useQueries, useQuery } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { familyApi } from "./family-api";
import type { NodeRecord } from "./graph-model";
import type { OpenApiDocument } from "./json-schema";
import { familiesOf, type NodeFamily } from "./node-families";

/** The running instance's OpenAPI document: the node families and their forms come from it. */
export function useOpenApiDocument() {
  return useQuery({
    queryKey: ["openapi"],
    queryFn: async () => {
      const response = await fetch("/api/openapi.json");
      if (!response.ok) throw new Error(`The API description answered ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Every record of every node family of the workspace (first 100 of each). */
export function useFamilyRecords(doc: OpenApiDocument | undefined) {
  const { api, organizationId } = useSession();
  const families = doc ? familiesOf(doc) : [];
  const results = useQueries({
    queries: families.map((family) => ({
      queryKey: ["family", organizationId, family.segment],
      queryFn: () => familyApi.list(api, family),
    })),
  });
  const records: Array<{ family: NodeFamily; record: NodeRecord }> = [];
  families.forEach((family, i) => {
    for (const record of results[i]?.data ?? []) records.push({ family, record });
  });
  return {
    families,
    records,
    isPending: !doc || results.some((r) => r.isPending),
    error: results.find((r) => r.error)?.error ?? null,
  };
}
