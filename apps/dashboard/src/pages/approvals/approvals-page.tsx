import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { JsonView } from "../../ui/copy";
import { timeAgo } from "../../ui/format";
import { EmptyState, ErrorState, Loading } from "../../ui/states";
import { useToast } from "../../ui/toast";

/** Every event waiting at an approval gate of the workspace, with approve and reject. */
export function ApprovalsPage() {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const gates = useQuery({
    queryKey: ["approval-nodes", organizationId],
    queryFn: () => call(api.GET("/api/approval-nodes", { params: { query: { limit: 100 } } })),
    refetchInterval: 5000,
  });
  const pending = useQueries({
    queries: (gates.data ?? []).map((gate) => ({
      queryKey: ["pending", organizationId, gate.id],
      queryFn: () =>
        call(api.GET("/api/approval-nodes/{id}/pending", { params: { path: { id: gate.id } } })),
      refetchInterval: 3000,
    })),
  });
  const decide = useMutation({
    mutationFn: (v: { gateId: string; eventId: string; decision: "approve" | "reject" }) =>
      call(
        v.decision === "approve"
          ? api.POST("/api/approval-nodes/{id}/approve", {
              params: { path: { id: v.gateId } },
              body: { eventId: v.eventId },
            })
          : api.POST("/api/approval-nodes/{id}/reject", {
              params: { path: { id: v.gateId } },
              body: { eventId: v.eventId },
            }),
      ),
    onSuccess: (r) => {
      toast(`Event ${r.eventId} ${r.decision}`);
      void queryClient.invalidateQueries({ queryKey: ["pending"] });
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const rows = (gates.data ?? []).flatMap((gate, i) =>
    (pending[i]?.data ?? []).map((item) => ({ gate, item })),
  );
  const loading = gates.isPending || pending.some((q) => q.isPending);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Approvals</h1>
          <p>Events parked at approval nodes wait here for a person's decision.</p>
        </div>
      </div>
      <div className="card">
        {gates.error ? (
          <ErrorState error={gates.error} retry={() => void gates.refetch()} />
        ) : loading ? (
          <Loading label="Loading approvals…" />
        ) : rows.length === 0 ? (
          <EmptyState title="Nothing waits for approval">
            {gates.data?.length
              ? "Events that reach an approval node show up here."
              : "Add an approval node on a webhook's canvas to gate events."}
          </EmptyState>
        ) : (
          <ul className="timeline" aria-label="Pending approvals">
            {rows.map(({ gate, item }) => (
              <li key={item.parkId}>
                <div className="spread">
                  <div>
                    <strong>{gate.name}</strong>{" "}
                    <span className="mono small muted">{item.eventId}</span>
                    <div className="muted small">
                      waiting since {timeAgo(item.createdAt)}
                      {item.timeoutAt
                        ? ` · auto-${gate.autoActionOnTimeout} ${timeAgo(item.timeoutAt)}`
                        : ""}
                    </div>
                  </div>
                  <div className="actions">
                    <button
                      type="button"
                      className="btn btn-sm"
                      disabled={decide.isPending}
                      onClick={() =>
                        decide.mutate({
                          gateId: gate.id,
                          eventId: item.eventId,
                          decision: "approve",
                        })
                      }
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger btn-sm"
                      disabled={decide.isPending}
                      onClick={() =>
                        decide.mutate({
                          gateId: gate.id,
                          eventId: item.eventId,
                          decision: "reject",
                        })
                      }
                    >
                      Reject
                    </button>
                  </div>
                </div>
                <JsonView
                  label={`Payload of ${item.eventId}`}
                  value={item.payloadPreview + (item.payloadTruncated ? " …" : "")}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
