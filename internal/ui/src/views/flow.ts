// flow://flows/{name}: one flow document — what it does, its parameters, its steps.

import { h, ICONS } from "../dom";
import { summarizeStep } from "../format";
import type { FlowDoc, FlowParameter, FlowStep, ViewEnv } from "../types";
import { badge, empty } from "./common";

/** How many steps the inline display mode shows before "+N more". */
export const INLINE_STEPS = 5;

export function flowView(data: unknown, env: ViewEnv): HTMLElement {
  const d = (data && typeof data === "object" ? data : {}) as FlowDoc;
  const params: FlowParameter[] = Array.isArray(d.parameters) ? d.parameters.filter((p) => p && typeof p.name === "string") : [];
  const steps: FlowStep[] = Array.isArray(d.steps) ? d.steps.filter((s) => s && typeof s === "object") : [];
  if (!d.name && !steps.length) {
    return h("section", { class: "view view-flow" }, empty("This flow is empty", "Nothing was saved under this name.", ICONS.flow));
  }
  const view = h(
    "section",
    { class: "view view-flow" },
    h(
      "header",
      { class: "flow-head" },
      h("h2", { class: "flow-name" }, d.name ?? "Untitled flow", d.shared ? badge("Shared", "info") : null),
      d.description ? h("p", { class: "flow-desc" }, d.description) : null,
    ),
  );

  view.append(h("h3", { class: "section-title" }, "Parameters"));
  view.append(
    params.length
      ? h(
          "dl",
          { class: "param-list" },
          params.map((p) =>
            h(
              "div",
              { class: "param-row" },
              h("dt", null, h("code", null, p.name), h("span", { class: "muted" }, p.type ?? "string"), p.required ? badge("required", "warn") : null),
              h(
                "dd",
                null,
                p.description ? h("span", null, p.description) : null,
                p.default !== undefined ? h("span", { class: "muted" }, "default ", h("code", null, String(p.default))) : null,
              ),
            ),
          ),
        )
      : h("p", { class: "muted small" }, "None: the flow runs as it is."),
  );

  view.append(h("h3", { class: "section-title" }, `Steps`, h("span", { class: "count" }, String(steps.length))));
  if (!steps.length) {
    view.append(empty("This flow has no steps", "save_flow again with at least one step.", ICONS.flow));
    return view;
  }
  const list = h("ol", { class: "steps" });
  const compact = env.displayMode === "inline" && steps.length > INLINE_STEPS + 1;
  const shown = compact ? steps.slice(0, INLINE_STEPS) : steps;
  shown.forEach((s, i) => list.append(stepRow(s, i)));
  view.append(list);
  if (compact) {
    const more = h(
      "button",
      {
        class: "more",
        type: "button",
        onclick: () => {
          steps.slice(INLINE_STEPS).forEach((s, i) => list.append(stepRow(s, INLINE_STEPS + i)));
          more.remove();
        },
      },
      `+${steps.length - INLINE_STEPS} more`,
    );
    view.append(more);
  }
  return view;
}

function stepRow(s: FlowStep, i: number): HTMLElement {
  const summary = summarizeStep(s);
  const rest = summary.slice((s.tool || "?").length);
  return h(
    "li",
    { class: "step" },
    h("span", { class: "step-n" }, String(i + 1)),
    h(
      "div",
      { class: "step-body" },
      h("div", { class: "step-line", title: summary }, h("span", { class: "tool" }, s.tool || "?"), h("span", { class: "args" }, rest)),
      s.note ? h("p", { class: "step-note" }, s.note) : null,
    ),
    h("div", { class: "step-tags" }, s.onError === "continue" ? badge("may fail", "muted") : null, s.id ? h("span", { class: "step-id" }, s.id) : null),
  );
}
