import { type FormEvent, useState } from "react";
import type { Schemas } from "../../api/client";
import { CheckField, NumberField, SelectField, TextField } from "../../ui/fields";
import { FilterListEditor, type FilterRule } from "./filter-list-editor";
import type { Webhook } from "./webhook-queries";

export type WebhookInput = Schemas["CreateWebhookInput"];

/** The editable fields of a webhook, flat, as the form holds them. */
interface Draft {
  name: string;
  description: string;
  targetUrl: string;
  isActive: boolean;
  maxRetries?: number;
  retryDelaySeconds?: number;
  backoffMultiplier?: number;
  fallbackUrl: string;
  priority?: number;
  rateLimitPerSecond?: number;
  rateLimitPerMinute?: number;
  responseMode: "none" | "sync";
  degradedAfter?: number;
  downAfter?: number;
  breakerEnabled: boolean;
  breakerThreshold?: number;
  breakerCooldown?: number;
  signatureType: "none" | "stripe" | "github" | "custom";
  signatureSecret: string;
  payloadFilters: FilterRule[];
  dedupEnabled: boolean;
  dedupWindow?: number;
  chaosEnabled: boolean;
  chaosFailureRate?: number;
  chaosLatencyMs?: number;
  acceptsInternalCalls: boolean;
}

function draftOf(w: Webhook | undefined): Draft {
  return {
    name: w?.name ?? "",
    description: w?.description ?? "",
    targetUrl: w?.targetUrl ?? "",
    isActive: w?.isActive ?? true,
    maxRetries: w?.maxRetries ?? 3,
    retryDelaySeconds: w?.retryDelaySeconds ?? 60,
    backoffMultiplier: w?.retryPolicy.backoffMultiplier ?? 2,
    fallbackUrl: w?.fallbackUrl ?? "",
    priority: w?.priority ?? 3,
    rateLimitPerSecond: w?.rateLimitPerSecond ?? 0,
    rateLimitPerMinute: w?.rateLimitPerMinute ?? 0,
    responseMode: w?.responseMode ?? "none",
    degradedAfter: w?.degradedAfter ?? 2,
    downAfter: w?.downAfter ?? 4,
    breakerEnabled: w?.circuitBreaker.enabled ?? false,
    breakerThreshold: w?.circuitBreaker.threshold ?? 5,
    breakerCooldown: w?.circuitBreaker.cooldownSeconds ?? 60,
    signatureType: w?.incomingSignatureType ?? "none",
    signatureSecret: "",
    payloadFilters: (w?.payloadFilters ?? []).map((f) => ({ ...f, value: f.value ?? "" })),
    dedupEnabled: w?.deduplication.enabled ?? false,
    dedupWindow: w?.deduplication.windowSeconds ?? 3600,
    chaosEnabled: w?.chaosConfig.enabled ?? false,
    chaosFailureRate: w?.chaosConfig.failureRate ?? 0,
    chaosLatencyMs: w?.chaosConfig.latencyMs ?? 0,
    acceptsInternalCalls: w?.acceptsInternalCalls ?? false,
  };
}

function inputOf(d: Draft, editing: boolean): WebhookInput {
  const input: WebhookInput = {
    name: d.name,
    description: d.description,
    targetUrl: d.targetUrl,
    isActive: d.isActive,
    maxRetries: d.maxRetries,
    retryDelaySeconds: d.retryDelaySeconds,
    retryPolicy: { backoffMultiplier: d.backoffMultiplier },
    fallbackUrl: d.fallbackUrl === "" ? null : d.fallbackUrl,
    priority: d.priority,
    rateLimitPerSecond: d.rateLimitPerSecond,
    rateLimitPerMinute: d.rateLimitPerMinute,
    responseMode: d.responseMode,
    degradedAfter: d.degradedAfter,
    downAfter: d.downAfter,
    circuitBreaker: {
      enabled: d.breakerEnabled,
      threshold: d.breakerThreshold,
      cooldownSeconds: d.breakerCooldown,
    },
    incomingSignatureType: d.signatureType,
    payloadFilters: d.payloadFilters.map((f) => ({
      field: f.field,
      operator: f.operator,
      ...(f.operator === "exists" || f.operator === "not_exists" ? {} : { value: f.value }),
    })),
    deduplication: { enabled: d.dedupEnabled, windowSeconds: d.dedupWindow },
    chaosConfig: {
      enabled: d.chaosEnabled,
      failureRate: d.chaosFailureRate,
      latencyMs: d.chaosLatencyMs,
    },
    acceptsInternalCalls: d.acceptsInternalCalls,
  };
  // The secret is never read back: send it when typed (always on create when required).
  if (d.signatureSecret !== "" || (!editing && d.signatureType !== "none")) {
    input.incomingSignatureSecret = d.signatureSecret;
  }
  return input;
}

/** Create and edit, every field of both field sets, grouped by what they govern. */
export function WebhookForm(props: {
  webhook?: Webhook;
  pending: boolean;
  onSubmit: (input: WebhookInput) => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(props.webhook));
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setD((old) => ({ ...old, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(inputOf(d, props.webhook !== undefined));
  };
  return (
    <form id="webhook-form" className="stack" onSubmit={submit}>
      <fieldset>
        <legend>Basics</legend>
        <div className="form-grid">
          <TextField label="Name" required value={d.name} onChange={set("name")} />
          <TextField
            label="Target URL"
            hint="empty: notification-only"
            type="url"
            value={d.targetUrl}
            onChange={set("targetUrl")}
            placeholder="https://example.com/hooks"
          />
          <TextField
            className="wide"
            label="Description"
            value={d.description}
            onChange={set("description")}
          />
          <CheckField
            label="Active"
            hint="inactive webhooks store events without delivering"
            checked={d.isActive}
            onChange={set("isActive")}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Delivery and retries</legend>
        <div className="form-grid">
          <NumberField
            label="Max retries"
            hint="0–20"
            min={0}
            max={20}
            value={d.maxRetries}
            onChange={set("maxRetries")}
          />
          <NumberField
            label="Retry delay (s)"
            hint="≥ 10, base of the backoff"
            min={10}
            value={d.retryDelaySeconds}
            onChange={set("retryDelaySeconds")}
          />
          <NumberField
            label="Backoff multiplier"
            min={1}
            max={10}
            step={0.1}
            value={d.backoffMultiplier}
            onChange={set("backoffMultiplier")}
          />
          <NumberField
            label="Priority"
            hint="1 highest – 5 lowest"
            min={1}
            max={5}
            value={d.priority}
            onChange={set("priority")}
          />
          <TextField
            className="wide"
            label="Fallback URL"
            hint="used after every retry failed"
            type="url"
            value={d.fallbackUrl}
            onChange={set("fallbackUrl")}
          />
          <NumberField
            label="Rate limit per second"
            hint="0 = unlimited"
            min={0}
            value={d.rateLimitPerSecond}
            onChange={set("rateLimitPerSecond")}
          />
          <NumberField
            label="Rate limit per minute"
            hint="0 = unlimited"
            min={0}
            value={d.rateLimitPerMinute}
            onChange={set("rateLimitPerMinute")}
          />
          <SelectField
            label="Response mode"
            hint="sync: the sender waits for the result"
            options={["none", "sync"]}
            value={d.responseMode}
            onChange={(v) => set("responseMode")(v as Draft["responseMode"])}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Health and circuit breaker</legend>
        <div className="form-grid">
          <NumberField
            label="Degraded after"
            hint="consecutive failures"
            min={1}
            value={d.degradedAfter}
            onChange={set("degradedAfter")}
          />
          <NumberField
            label="Down after"
            hint="more than degraded"
            min={1}
            value={d.downAfter}
            onChange={set("downAfter")}
          />
          <CheckField
            className="wide"
            label="Circuit breaker"
            checked={d.breakerEnabled}
            onChange={set("breakerEnabled")}
          />
          <NumberField
            label="Breaker threshold"
            min={1}
            value={d.breakerThreshold}
            onChange={set("breakerThreshold")}
          />
          <NumberField
            label="Breaker cooldown (s)"
            min={1}
            value={d.breakerCooldown}
            onChange={set("breakerCooldown")}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Incoming requests</legend>
        <div className="form-grid">
          <SelectField
            label="Signature check"
            options={["none", "stripe", "github", "custom"]}
            value={d.signatureType}
            onChange={(v) => set("signatureType")(v as Draft["signatureType"])}
          />
          {d.signatureType !== "none" && (
            <TextField
              label="Signature secret"
              hint={props.webhook?.hasIncomingSignatureSecret ? "set; type to replace" : "required"}
              type="password"
              value={d.signatureSecret}
              onChange={set("signatureSecret")}
            />
          )}
          <CheckField label="Deduplicate" checked={d.dedupEnabled} onChange={set("dedupEnabled")} />
          <NumberField
            label="Dedup window (s)"
            min={1}
            value={d.dedupWindow}
            onChange={set("dedupWindow")}
          />
        </div>
        <FilterListEditor
          title="Payload filters (all must match)"
          rules={d.payloadFilters}
          onChange={set("payloadFilters")}
        />
      </fieldset>
      <fieldset>
        <legend>Testing and internal calls</legend>
        <div className="form-grid">
          <CheckField
            className="wide"
            label="Chaos injection"
            hint="fail or slow deliveries on purpose"
            checked={d.chaosEnabled}
            onChange={set("chaosEnabled")}
          />
          <NumberField
            label="Failure rate (%)"
            min={0}
            max={100}
            value={d.chaosFailureRate}
            onChange={set("chaosFailureRate")}
          />
          <NumberField
            label="Added latency (ms)"
            min={0}
            max={60000}
            value={d.chaosLatencyMs}
            onChange={set("chaosLatencyMs")}
          />
          <CheckField
            className="wide"
            label="Accept internal calls"
            hint="other flows of the organization may invoke it"
            checked={d.acceptsInternalCalls}
            onChange={set("acceptsInternalCalls")}
          />
        </div>
      </fieldset>
      <div className="actions" style={{ justifyContent: "flex-end" }}>
        <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn" disabled={props.pending}>
          {props.pending ? "Saving…" : props.webhook ? "Save changes" : "Create webhook"}
        </button>
      </div>
    </form>
  );
}
