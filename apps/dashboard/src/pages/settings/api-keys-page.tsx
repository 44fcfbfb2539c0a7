import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { KEY_SCOPES, type KeyScope } from "../../api/enums";
import { CopyField } from "../../ui/copy";
import { timeAgo } from "../../ui/format";
import { EmptyState, QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";

export function ApiKeysPage() {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<KeyScope[]>(["webhooks:read", "events:read"]);
  const [created, setCreated] = useState<string | null>(null);
  const keys = useQuery({
    queryKey: ["api-keys", organizationId],
    queryFn: () => call(api.GET("/api/api-keys")),
  });
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST("/api/api-keys", {
          body: { name, scopes, organizationId: organizationId ?? null },
        }),
      ),
    onSuccess: (key) => {
      setCreated(key.key);
      setName("");
      void queryClient.invalidateQueries({ queryKey: ["api-keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE("/api/api-keys/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      toast("Key revoked");
      void queryClient.invalidateQueries({ queryKey: ["api-keys"] });
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    create.mutate();
  };
  const toggle = (scope: KeyScope) =>
    setScopes((all) => (all.includes(scope) ? all.filter((s) => s !== scope) : [...all, scope]));
  return (
    <>
      <div className="page-head">
        <div>
          <h1>API keys</h1>
          <p>
            Keys for scripts, the CLI and the SDK. A key's value is shown once, when it is created.
          </p>
        </div>
      </div>
      <form className="card stack" onSubmit={submit} aria-labelledby="new-key-h">
        <h2 id="new-key-h">New key</h2>
        {create.error && (
          <div className="alert" role="alert">
            {messageOf(create.error)}
          </div>
        )}
        {created && (
          <div className="alert success stack" role="status">
            <strong>Copy this key now: it will not be shown again.</strong>
            <CopyField label="New API key" value={created} />
          </div>
        )}
        <label className="field">
          <span>Name</span>
          <input
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="ci deploys"
          />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          <div
            className="form-grid"
            style={{ gridTemplateColumns: "repeat(auto-fit, minmax(170px, 1fr))" }}
          >
            {KEY_SCOPES.map((scope) => (
              <label key={scope} className="check">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={() => toggle(scope)}
                />
                <span className="mono">{scope}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <button className="btn" type="submit" disabled={create.isPending || scopes.length === 0}>
            Create key
          </button>
        </div>
      </form>
      <div className="card">
        <QueryView query={keys} label="Loading keys…">
          {(list) =>
            list.length === 0 ? (
              <EmptyState title="No keys yet" />
            ) : (
              <div className="table-wrap">
                <table aria-label="API keys">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Prefix</th>
                      <th className="hide-narrow">Scopes</th>
                      <th className="hide-narrow">Last used</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((k) => (
                      <tr key={k.id}>
                        <td>{k.name}</td>
                        <td className="mono">{k.prefix}…</td>
                        <td className="hide-narrow small">{k.scopes.join(", ")}</td>
                        <td className="hide-narrow muted">{timeAgo(k.lastUsedAt)}</td>
                        <td>
                          <button
                            type="button"
                            className="btn btn-danger btn-sm"
                            aria-label={`Revoke ${k.name}`}
                            onClick={() =>
                              window.confirm(`Revoke ${k.name}? It stops working at once.`) &&
                              revoke.mutate(k.id)
                            }
                          >
                            Revoke
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryView>
      </div>
    </>
  );
}
