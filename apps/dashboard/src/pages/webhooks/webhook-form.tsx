import { type FormEvent, useState } from "react";
import {
  type Draft,
  draftOf,
  inputOf,
  type SetDraftField,
  type WebhookInput,
} from "./webhook-draft";
import {
  BasicsFieldset,
  DeliveryFieldset,
  HealthFieldset,
  IncomingFieldset,
  TestingFieldset,
} from "./webhook-fieldsets";
import type { Webhook } from "./webhook-queries";

export type { WebhookInput } from "./webhook-draft";

/** Create and edit, every field of both field sets, grouped by what they govern. */
export function WebhookForm(props: {
  webhook?: Webhook;
  pending: boolean;
  onSubmit: (input: WebhookInput) => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(props.webhook));
  const set: SetDraftField =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setD((old) => ({ ...old, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(inputOf(d, props.webhook !== undefined));
  };
  return (
    <form id="webhook-form" className="stack" onSubmit={submit}>
      <BasicsFieldset d={d} set={set} />
      <DeliveryFieldset d={d} set={set} />
      <HealthFieldset d={d} set={set} />
      <IncomingFieldset
        d={d}
        set={set}
        hasSecret={props.webhook?.hasIncomingSignatureSecret ?? false}
      />
      <TestingFieldset d={d} set={set} />
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
