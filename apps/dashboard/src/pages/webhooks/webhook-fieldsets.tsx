import { CheckField, NumberField, SelectField, TextField } from "../../ui/fields";
import { FilterListEditor } from "./filter-list-editor";
import type { Draft, SetDraftField } from "./webhook-draft";

/** A fieldset of the webhook form: the draft and the setter of its fields. */
interface FieldsetProps {
  d: Draft;
  set: SetDraftField;
}

/** Name, target, description and whether the webhook delivers at all. */
export function BasicsFieldset({ d, set }: FieldsetProps) {
  return (
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
  );
}

/** How deliveries are retried, ordered, paced and answered. */
export function DeliveryFieldset({ d, set }: FieldsetProps) {
  return (
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
  );
}

/** When the webhook counts as degraded or down, and its circuit breaker. */
export function HealthFieldset({ d, set }: FieldsetProps) {
  return (
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
  );
}

/** What an incoming request must pass: signature, deduplication, payload filters. */
export function IncomingFieldset({ d, set, hasSecret }: FieldsetProps & { hasSecret: boolean }) {
  return (
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
            hint={hasSecret ? "set; type to replace" : "required"}
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
  );
}

/** Chaos injection for testing, and calls from other flows. */
export function TestingFieldset({ d, set }: FieldsetProps) {
  return (
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
  );
}
