import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { Dialog } from "../../ui/dialog";
import { timeAgo } from "../../ui/format";
import { EmptyState, QueryView } from "../../ui/states";
import { WebhookForm, type WebhookInput } from "./webhook-form";
import { useWebhooks } from "./webhook-queries";

export function WebhooksPage() {
  const { api } = useSession();
  const webhooks = useWebhooks();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [creating, setCreating] = useState(false);
  const create = useMutation({
    mutationFn: (body: WebhookInput) => call(api.POST("/api/webhooks", { body })),
    onSuccess: (webhook) => {
      void queryClient.invalidateQueries({ queryKey: ["webhooks"] });
      setCreating(false);
      navigate(`/webhooks/${webhook.id}`);
    },
  });
  const newButton = (
    <button type="button" className="btn" onClick={() => setCreating(true)}>
      New webhook
    </button>
  );
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p>
            Each webhook has its own ingress URL; events sent there are stored, run through its
            graph and delivered.
          </p>
        </div>
        {newButton}
      </div>
      <div className="card">
        <QueryView query={webhooks} label="Loading webhooks…">
          {(list) =>
            list.length === 0 ? (
              <EmptyState title="No webhooks yet" action={newButton}>
                Create one to get an ingress URL you can point any sender at.
              </EmptyState>
            ) : (
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Health</th>
                      <th>State</th>
                      <th className="hide-narrow">Target</th>
                      <th className="hide-narrow">Priority</th>
                      <th className="hide-narrow">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((w) => (
                      <tr
                        key={w.id}
                        className="clickable"
                        onClick={() => navigate(`/webhooks/${w.id}`)}
                      >
                        <td>
                          <a
                            href={`/webhooks/${w.id}`}
                            onClick={(e) => {
                              e.preventDefault();
                              navigate(`/webhooks/${w.id}`);
                            }}
                          >
                            <strong>{w.name}</strong>
                          </a>
                          {w.description && <div className="muted small">{w.description}</div>}
                        </td>
                        <td>
                          <StatusBadge status={w.healthStatus} />
                        </td>
                        <td>
                          <StatusBadge status={w.isActive ? "active" : "inactive"} />
                        </td>
                        <td className="hide-narrow mono small">
                          {w.targetUrl || <span className="muted">notification only</span>}
                        </td>
                        <td className="hide-narrow">P{w.priority}</td>
                        <td className="hide-narrow muted">{timeAgo(w.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryView>
      </div>
      <Dialog title="New webhook" open={creating} onClose={() => setCreating(false)}>
        {create.error && (
          <div className="alert" role="alert" style={{ marginBottom: "0.8rem" }}>
            {messageOf(create.error)}
          </div>
        )}
        <WebhookForm
          pending={create.isPending}
          onSubmit={(input) => create.mutate(input)}
          onCancel={() => setCreating(false)}
        />
      </Dialog>
    </>
  );
}
