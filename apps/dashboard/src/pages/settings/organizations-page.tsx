import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { EmptyState, QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";

function AddMember({ organizationId }: { organizationId: string }) {
  const { api } = useSession();
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"member" | "admin" | "owner">("member");
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST("/api/organizations/{id}/members", {
          params: { path: { id: organizationId } },
          body: { email, role },
        }),
      ),
    onSuccess: () => {
      toast(`${email} added`);
      setEmail("");
    },
    onError: (e) => toast(messageOf(e), "error"),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Add a member">
      <input
        type="email"
        required
        aria-label="Member email"
        placeholder="teammate@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        style={{ maxWidth: 260 }}
      />
      <select
        aria-label="Role"
        value={role}
        onChange={(e) => setRole(e.target.value as typeof role)}
        style={{ maxWidth: 130 }}
      >
        <option value="member">member</option>
        <option value="admin">admin</option>
        <option value="owner">owner</option>
      </select>
      <button type="submit" className="btn btn-secondary btn-sm" disabled={add.isPending}>
        Add member
      </button>
    </form>
  );
}

export function OrganizationsPage() {
  const { api, organizationId, switchOrganization, token } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const orgs = useQuery({
    queryKey: ["organizations", token],
    queryFn: () => call(api.GET("/api/organizations")),
  });
  const create = useMutation({
    mutationFn: () => call(api.POST("/api/organizations", { body: { name } })),
    onSuccess: () => {
      setName("");
      void queryClient.invalidateQueries({ queryKey: ["organizations"] });
      void queryClient.invalidateQueries({ queryKey: ["me"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Organizations</h1>
          <p>Share webhooks and graphs with a team. Switch workspaces from the sidebar.</p>
        </div>
      </div>
      <form className="card stack" onSubmit={submit} aria-labelledby="new-org-h">
        <h2 id="new-org-h">New organization</h2>
        {create.error && (
          <div className="alert" role="alert">
            {messageOf(create.error)}
          </div>
        )}
        <div className="row">
          <input
            required
            aria-label="Organization name"
            placeholder="Acme Inc."
            value={name}
            onChange={(e) => setName(e.target.value)}
            style={{ maxWidth: 320 }}
          />
          <button className="btn" type="submit" disabled={create.isPending}>
            Create
          </button>
        </div>
      </form>
      <div className="card">
        <QueryView query={orgs} label="Loading organizations…">
          {(list) =>
            list.length === 0 ? (
              <EmptyState title="You belong to no organization" />
            ) : (
              <ul className="timeline" aria-label="Organizations">
                {list.map((o) => (
                  <li key={o.id}>
                    <div className="spread">
                      <div>
                        <strong>{o.name}</strong> <span className="badge plain">{o.role}</span>
                      </div>
                      {organizationId === o.id ? (
                        <span className="badge ok">current workspace</span>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          onClick={() => switchOrganization(o.id)}
                        >
                          Switch to
                        </button>
                      )}
                    </div>
                    {(o.role === "owner" || o.role === "admin") && (
                      <AddMember organizationId={o.id} />
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      </div>
    </>
  );
}
