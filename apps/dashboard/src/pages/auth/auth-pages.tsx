import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";

function AuthFrame(props: { title: string; subtitle: string; children: React.ReactNode }) {
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
        {props.children}
      </div>
    </main>
  );
}

export function LoginPage() {
  const { api, signIn } = useSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => call(api.POST("/api/auth/login", { body: { email, password } })),
    onSuccess: (data) => signIn(data.token),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <AuthFrame title="Log in" subtitle="Relay, inspect and replay your webhooks.">
      <form className="stack" onSubmit={submit}>
        {login.error && (
          <div className="alert" role="alert">
            {messageOf(login.error)}
          </div>
        )}
        <label className="field">
          <span>Email</span>
          <input
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button className="btn" type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in…" : "Log in"}
        </button>
        <p className="muted small">
          New here? <Link href="/signup">Create an account</Link>
        </p>
      </form>
    </AuthFrame>
  );
}

export function SignupPage() {
  const { api, signIn } = useSession();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signup = useMutation({
    mutationFn: () => call(api.POST("/api/auth/signup", { body: { email, password, name } })),
    onSuccess: (data) => signIn(data.token),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signup.mutate();
  };
  return (
    <AuthFrame
      title="Create your account"
      subtitle="Self-hosted webhooks, from ingress to delivery."
    >
      <form className="stack" onSubmit={submit}>
        {signup.error && (
          <div className="alert" role="alert">
            {messageOf(signup.error)}
          </div>
        )}
        <label className="field">
          <span>Name</span>
          <input
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Email</span>
          <input
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span>
            Password <span className="hint">(8 characters or more)</span>
          </span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button className="btn" type="submit" disabled={signup.isPending}>
          {signup.isPending ? "Creating…" : "Create account"}
        </button>
        <p className="muted small">
          Already have an account? <Link href="/login">Log in</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
