import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";

interface Credentials {
  name: string;
  email: string;
  password: string;
}

/** The sign-up and log-in card: optional name, email, password, one submit that opens a session. */
function AuthForm(props: {
  title: string;
  subtitle: string;
  withName: boolean;
  submit: string;
  pending: string;
  send: (credentials: Credentials) => Promise<{ token: string }>;
  footer: ReactNode;
}) {
  const { signIn } = useSession();
  const [values, setValues] = useState<Credentials>({ name: "", email: "", password: "" });
  const open = useMutation({
    mutationFn: () => props.send(values),
    onSuccess: (r) => signIn(r.token),
  });
  const set = (key: keyof Credentials) => (e: { target: { value: string } }) =>
    setValues((old) => ({ ...old, [key]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    open.mutate();
  };
  return (
    <main className="auth">
      <div className="card">
        <div className="brand">
          <img src="/favicon.svg" alt="" /> Hookflow
        </div>
        <h1>{props.title}</h1>
        <p className="muted" style={{ marginTop: "0.3rem" }}>
          {props.subtitle}
        </p>
        <form className="stack" onSubmit={submit}>
          {open.error && (
            <div className="alert" role="alert">
              {messageOf(open.error)}
            </div>
          )}
          {props.withName && (
            <label className="field">
              <span>Name</span>
              <input autoComplete="name" required value={values.name} onChange={set("name")} />
            </label>
          )}
          <label className="field">
            <span>Email</span>
            <input
              type="email"
              autoComplete="email"
              required
              value={values.email}
              onChange={set("email")}
            />
          </label>
          <label className="field">
            <span>
              Password {props.withName && <span className="hint">(8 characters or more)</span>}
            </span>
            <input
              type="password"
              autoComplete={props.withName ? "new-password" : "current-password"}
              required
              minLength={props.withName ? 8 : undefined}
              value={values.password}
              onChange={set("password")}
            />
          </label>
          <button className="btn" type="submit" disabled={open.isPending}>
            {open.isPending ? props.pending : props.submit}
          </button>
          <p className="muted small">{props.footer}</p>
        </form>
      </div>
    </main>
  );
}

export function LoginPage() {
  const { api } = useSession();
  return (
    <AuthForm
      title="Log in"
      subtitle="Relay, inspect and replay your webhooks."
      withName={false}
      submit="Log in"
      pending="Logging in…"
      send={({ email, password }) =>
        call(api.POST("/api/auth/login", { body: { email, password } }))
      }
      footer={
        <>
          New here? <Link href="/signup">Create an account</Link>
        </>
      }
    />
  );
}

export function SignupPage() {
  const { api } = useSession();
  return (
    <AuthForm
      title="Create your account"
      subtitle="Self-hosted webhooks, from ingress to delivery."
      withName
      submit="Create account"
      pending="Creating…"
      send={(body) => call(api.POST("/api/auth/signup", { body }))}
      footer={
        <>
          Already have an account? <Link href="/login">Log in</Link>
        </>
      }
    />
  );
}
