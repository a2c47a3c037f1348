// The frame around every admin view: the bar with navigation, who is
// signed in, the theme switch and sign out.

import { h } from "../../src/dom";
import type { Me } from "../api";
import type { Route } from "../routes";

export type Theme = "light" | "dark";

export interface FrameActions {
  signOut: () => void;
  toggleTheme: () => void;
}

export function frame(me: Me, route: Route, theme: Theme, act: FrameActions, main: HTMLElement): HTMLElement {
  const here = route.view === "secrets" ? "secrets" : route.view === "settings" ? "settings" : "workspaces";
  const link = (to: string, label: string) =>
    h("a", { class: `nav-link${here === to ? " current" : ""}`, href: `#/${to}`, "aria-current": here === to ? "page" : undefined }, label);
  return h(
    "div",
    { class: "admin" },
    h(
      "header",
      { class: "admin-bar" },
      h("a", { class: "brand", href: "#/workspaces" }, "Selenium Flow"),
      h("nav", { class: "admin-nav", "aria-label": "Sections" }, link("workspaces", "Workspaces"), link("secrets", "Secrets"), me.operator ? link("settings", "Settings") : null),
      h(
        "div",
        { class: "admin-who" },
        h("span", { class: "who", title: me.operator ? "Operator: sees every principal" : "Sees own workspace" }, me.principal, me.operator ? " · operator" : ""),
        h(
          "button",
          { class: "btn btn-quiet", type: "button", id: "theme-toggle", "aria-label": `Switch to ${theme === "dark" ? "light" : "dark"} theme`, onclick: act.toggleTheme },
          theme === "dark" ? "Light" : "Dark",
        ),
        h("button", { class: "btn btn-quiet", type: "button", id: "sign-out", onclick: act.signOut }, "Sign out"),
      ),
    ),
    h("main", { class: "admin-main", id: "main", tabindex: "-1" }, main),
  );
}
