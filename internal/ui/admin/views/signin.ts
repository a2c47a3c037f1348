// Sign in: a bearer token from FLOW_TOKENS, or OIDC when configured.

import { h } from "../../src/dom";
import type { Config } from "../api";
import { providerName } from "../oidc";

export interface SignInActions {
  token: (token: string) => void;
  oidc?: () => void;
}

export function signInView(cfg: Config, act: SignInActions, error?: string): HTMLElement {
  const input = h("input", {
    id: "token",
    type: "password",
    name: "token",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "Bearer token",
    "aria-describedby": "token-hint",
    "aria-invalid": error ? "true" : undefined,
  });
  const form = h(
    "form",
    {
      class: "signin",
      onsubmit: (e: Event) => {
        e.preventDefault();
        act.token(input.value.trim());
      },
    },
    h("h1", null, "Selenium Flow admin"),
    h("label", { for: "token" }, "Token"),
    input,
    h("p", { id: "token-hint", class: "muted small" }, "A token from the server's FLOW_TOKENS file. It is kept in this tab only and sent as Authorization: Bearer."),
    error ? h("p", { class: "form-error", role: "alert", id: "signin-error" }, error) : null,
    h("button", { class: "btn btn-primary", type: "submit", id: "sign-in" }, "Sign in"),
    cfg.oidc && act.oidc ? h("button", { class: "btn", type: "button", id: "sign-in-oidc", onclick: act.oidc }, `Sign in with ${providerName(cfg.oidc.issuer)}`) : null,
  );
  queueMicrotask(() => input.focus());
  return h("div", { class: "signin-wrap" }, form);
}
