// flow://flows: saved flows as a horizontal row of cards; a card drills into its flow.

import { h, icon, ICONS } from "../dom";
import type { FlowSummary, FlowsData, ViewEnv } from "../types";
import { noServerTools } from "../types";
import { badge, empty, notice } from "./common";

export function flowsView(data: unknown, env: ViewEnv): HTMLElement {
  const d = (data && typeof data === "object" ? data : {}) as FlowsData;
  const flows: FlowSummary[] = Array.isArray(d.flows) ? d.flows.filter((f) => f && typeof f.name === "string") : [];
  const view = h("section", { class: "view view-flows" });
  if (!flows.length) {
    view.append(empty("No saved flows yet", "A sequence that works can be kept with save_flow and replayed with run_flow.", ICONS.flow));
    return view;
  }
  if (!env.show) view.append(notice(noServerTools("flows")));
  view.append(
    h(
      "div",
      { class: "scroller-wrap" },
      h("ul", { class: "scroller", "aria-label": "Saved flows" }, flows.map((f) => h("li", { class: "slot" }, card(f, env)))),
    ),
  );
  return view;
}

function shared(owner?: string): HTMLElement {
  const b = badge("Shared", "info");
  if (owner) b.title = `Shared by ${owner}`;
  return b;
}

function library(): HTMLElement {
  const b = badge("Library", "info");
  b.title = "From the shared library: anyone can run it, only an operator can change it";
  return b;
}

function card(f: FlowSummary, env: ViewEnv): HTMLElement {
  const params = Array.isArray(f.parameters) ? f.parameters : [];
  const steps = typeof f.steps === "number" ? f.steps : undefined;
  const body = [
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-icon" }, icon(ICONS.flow)),
      h("h3", { class: "card-title", title: f.name }, f.name),
    ),
    h("p", { class: "card-desc" }, f.description || h("span", { class: "muted" }, "No description")),
    params.length
      ? h(
          "div",
          { class: "params" },
          params.slice(0, 4).map((p) => h("span", { class: `param${p.required ? " required" : ""}`, title: p.type ?? "" }, p.name)),
          params.length > 4 ? h("span", { class: "param more" }, `+${params.length - 4}`) : null,
        )
      : null,
    h(
      "div",
      { class: "card-foot" },
      steps !== undefined ? h("span", null, `${steps} step${steps === 1 ? "" : "s"}`) : null,
      f.library ? library() : f.shared ? shared(f.owner) : null,
      env.show ? h("span", { class: "card-go" }, icon(ICONS.chevron)) : null,
    ),
  ];
  return env.show
    ? h("button", { class: "card flow-card", type: "button", "data-uri": f.uri, onclick: () => env.show!(f.uri) }, body)
    : h("div", { class: "card flow-card card-static", "data-uri": f.uri, "aria-disabled": "true" }, body);
}
