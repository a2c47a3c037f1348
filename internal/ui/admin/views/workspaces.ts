// The live workspace list: one row per workspace, pushed by the server.

import { h } from "../../src/dom";
import { formatWhen } from "../../src/format";
import { badge, empty, skeleton } from "../../src/views/common";
import { href } from "../routes";

export interface Workspace {
  id: string;
  owner: string;
  name: string;
  state: "live" | "idle" | "closed" | string;
  browser?: string;
  url?: string;
  lastUsedAt?: string;
  idleTimeout?: string;
  files: number;
  flows: number;
  sites: number;
}

export function stateBadge(state: string): HTMLElement {
  return badge(state, state === "live" ? "ok" : state === "idle" ? "warn" : "muted");
}

export function workspacesView(list: Workspace[] | undefined, now: Date, end: (ws: Workspace) => void): HTMLElement {
  const view = h("section", { class: "view view-workspaces" }, h("h1", { class: "page-h" }, "Workspaces"));
  if (!list) {
    view.append(skeleton("flows"));
    return view;
  }
  if (!list.length) {
    view.append(empty("No workspaces", "A workspace appears when a caller opens a browser or keeps a file."));
    return view;
  }
  view.append(
    h(
      "ul",
      { class: "ws-list", "aria-label": "Workspaces", "aria-live": "polite" },
      list.map((w) =>
        h(
          "li",
          { class: "ws-row", "data-ws": w.id, "data-state": w.state },
          h(
            "div",
            { class: "ws-main" },
            h("a", { class: "ws-name", href: href({ view: "workspace", ws: w.id, tab: "files" }) }, w.owner, h("span", { class: "muted" }, ` / ${w.name}`)),
            stateBadge(w.state),
            w.browser ? h("span", { class: "muted small" }, w.browser) : null,
          ),
          h("div", { class: "ws-url mono small", title: w.url ?? "" }, w.url || (w.state === "closed" ? "No browser open" : "")),
          h(
            "div",
            { class: "ws-facts small muted" },
            `${w.files} files · ${w.flows} flows · ${w.sites} sites`,
            w.lastUsedAt ? ` · used ${formatWhen(w.lastUsedAt, now)}` : "",
            w.idleTimeout && w.state !== "closed" ? ` · closes after ${w.idleTimeout} idle` : "",
          ),
          w.state !== "closed"
            ? h("button", { class: "btn btn-danger ws-end", type: "button", "aria-label": `End ${w.owner}'s browser`, onclick: () => end(w) }, "End browser")
            : null,
        ),
      ),
    ),
  );
  return view;
}
