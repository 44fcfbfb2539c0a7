import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { StatusBadge } from "../../ui/badges";
import { CopyField } from "../../ui/copy";
import { Dialog } from "../../ui/dialog";
import { QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";
import { WebhookStats } from "../stats/webhook-stats";
import { WebhookForm, type WebhookInput } from "./webhook-form";
import { useWebhook, type Webhook } from "./webhook-queries";

function useWebhookActions(webhook: Webhook) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["webhook"] });
    void queryClient.invalidateQueries({ queryKey: ["webhooks"] });
  };
  const path = { params: { path: { id: webhook.id } } };
  const onError = (error: unknown) => toast(messageOf(error), "error");
  return {
    update: useMutation({
      mutationFn: (body: WebhookInput) => call(api.PATCH("/api/webhooks/{id}", { ...path, body })),
      onSuccess: refresh,
    }),
    toggle: useMutation({
      mutationFn: () => call(api.POST("/api/webhooks/{id}/toggle-active", path)),
      onSuccess: (r) => {
        toast(r.isActive ? "Webhook activated" : "Webhook paused");
        refresh();
      },
      onError,
    }),
    rotateToken: useMutation({
      mutationFn: () => call(api.POST("/api/webhooks/{id}/rotate-token", path)),
      onSuccess: () => {
        toast("New ingress URL issued; the old one stopped working");
        refresh();
      },
      onError,
    }),
    rotateSecret: useMutation({
      mutationFn: () => call(api.POST("/api/webhooks/{id}/rotate-signing-secret", path)),
      onSuccess: () => {
        toast("New signing secret issued");
        refresh();
      },
      onError,
    }),
    test: useMutation({
      mutationFn: () => call(api.POST("/api/webhooks/{id}/test", { ...path, body: {} })),
      onSuccess: (r) => {
        toast(`Test event ${r.eventId} sent`);
        void queryClient.invalidateQueries({ queryKey: ["events"] });
      },
      onError,
    }),
    remove: useMutation({
      mutationFn: () => call(api.DELETE("/api/webhooks/{id}", path)),
      onError,
    }),
  };
}

function WebhookView({ webhook }: { webhook: Webhook }) {
  const actions = useWebhookActions(webhook);
  const [editing, setEditing] = useState(false);
  const [showSecret, setShowSecret] = useState(false);
  const [, navigate] = useLocation();
  const confirmThen = (text: string, run: () => void) => {
    if (window.confirm(text)) run();
  };
  return (
    <>
      <div className="page-head">
        <div>
          <div className="row">
            <h1>{webhook.name}</h1>
            <StatusBadge status={webhook.healthStatus} />
            <StatusBadge status={webhook.isActive ? "active" : "inactive"} />
          </div>
          <p>{webhook.description || "No description"}</p>
        </div>
        <div className="actions">
          <button
            type="button"
            className="btn"
            onClick={() => actions.test.mutate()}
            disabled={actions.test.isPending}
          >
            Send test event
          </button>
          <Link className="btn btn-secondary" href={`/webhooks/${webhook.id}/canvas`}>
            Open canvas
          </Link>
          <Link className="btn btn-secondary" href={`/events?webhookId=${webhook.id}`}>
            Events
          </Link>
          <button type="button" className="btn btn-secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => actions.toggle.mutate()}
          >
            {webhook.isActive ? "Pause" : "Activate"}
          </button>
        </div>
      </div>
      <div className="grid grid-2">
        <section className="card stack" aria-labelledby="ingress-h">
          <h2 id="ingress-h">Ingress URL</h2>
          <p className="muted small" style={{ margin: 0 }}>
            Point your sender here. Any JSON body is accepted and stored before the answer.
          </p>
          <CopyField label="Ingress URL" value={webhook.ingressUrl} />
          <div>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() =>
                confirmThen(
                  "Rotate the ingress token? The current URL stops working at once.",
                  () => actions.rotateToken.mutate(),
                )
              }
            >
              Rotate token
            </button>
          </div>
        </section>
        <section className="card stack" aria-labelledby="secret-h">
          <h2 id="secret-h">Signing secret</h2>
          <p className="muted small" style={{ margin: 0 }}>
            Deliveries carry <code>X-Hookflow-Signature</code> and the Standard Webhooks headers.
          </p>
          {showSecret ? (
            <CopyField label="Signing secret" value={webhook.signingSecret} />
          ) : (
            <div>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setShowSecret(true)}
              >
                Reveal secret
              </button>
            </div>
          )}
          <div>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() =>
                confirmThen("Rotate the signing secret? Receivers must switch at once.", () =>
                  actions.rotateSecret.mutate(),
                )
              }
            >
              Rotate secret
            </button>
          </div>
        </section>
      </div>
      <div className="card">
        <div className="grid grid-4">
          <div className="stat">
            <span className="label">Target</span>
            <span className="mono small">{webhook.targetUrl || "notification only"}</span>
          </div>
          <div className="stat">
            <span className="label">Retries</span>
            <span>
              {webhook.maxRetries} × {webhook.retryDelaySeconds}s (×
              {webhook.retryPolicy.backoffMultiplier})
            </span>
          </div>
          <div className="stat">
            <span className="label">Priority</span>
            <span>P{webhook.priority}</span>
          </div>
          <div className="stat">
            <span className="label">Circuit</span>
            <span>{webhook.circuitBreaker.enabled ? webhook.circuitBreaker.state : "off"}</span>
          </div>
        </div>
      </div>
      <WebhookStats webhookId={webhook.id} />
      <div className="card spread">
        <div>
          <h2 style={{ marginBottom: "0.2rem" }}>Delete webhook</h2>
          <p className="muted small" style={{ margin: 0 }}>
            Removes the webhook with all of its events.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() =>
            confirmThen(`Delete ${webhook.name} and all of its events?`, () =>
              actions.remove.mutate(undefined, { onSuccess: () => navigate("/webhooks") }),
            )
          }
        >
          Delete
        </button>
      </div>
      <Dialog title={`Edit ${webhook.name}`} open={editing} onClose={() => setEditing(false)}>
        {actions.update.error && (
          <div className="alert" role="alert" style={{ marginBottom: "0.8rem" }}>
            {messageOf(actions.update.error)}
          </div>
        )}
        <WebhookForm
          webhook={webhook}
          pending={actions.update.isPending}
          onSubmit={(input) => actions.update.mutate(input, { onSuccess: () => setEditing(false) })}
          onCancel={() => setEditing(false)}
        />
      </Dialog>
    </>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const webhook = useWebhook(id);
  return (
    <QueryView query={webhook} label="Loading webhook…">
      {(w) => <WebhookView webhook={w} />}
    </QueryView>
  );
}
