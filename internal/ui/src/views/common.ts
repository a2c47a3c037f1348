// Pieces every view uses: empty states, notices, badges, skeletons.

import { h, icon, ICONS, type Child } from "../dom";

export function empty(title: string, hint?: string, glyph: string = ICONS.folder): HTMLElement {
  return h(
    "div",
    { class: "empty", role: "status" },
    h("div", { class: "empty-icon" }, icon(glyph)),
    h("p", { class: "empty-title" }, title),
    hint ? h("p", { class: "empty-hint" }, hint) : null,
  );
}

export function notice(text: string): HTMLElement {
  return h("p", { class: "notice", role: "note" }, text);
}

export function badge(text: string, tone: "ok" | "warn" | "info" | "muted" | "danger" = "muted"): HTMLElement {
  return h("span", { class: `badge badge-${tone}` }, text);
}

export function code(text: string): HTMLElement {
  return h("code", null, text);
}

/** Grey shapes in the layout of the view that is loading (never a spinner). */
export function skeleton(component?: string): HTMLElement {
  const bar = (w: string, cls = "") => h("div", { class: `sk sk-bar ${cls}`, style: `width:${w}` });
  let body: Child;
  switch (component) {
    case "flows":
      body = h(
        "div",
        { class: "scroller-wrap" },
        h("div", { class: "scroller" }, [1, 2, 3, 4, 5].map(() => h("div", { class: "sk sk-card" }))),
      );
      break;
    case "flow":
      body = [
        bar("40%", "sk-title"),
        bar("75%"),
        h("div", { class: "sk-steps" }, [1, 2, 3, 4, 5].map(() => h("div", { class: "sk sk-step" }))),
      ];
      break;
    case "files":
    case "folder":
      body = [
        component === "files" ? h("div", { class: "chips" }, [1, 2, 3].map(() => h("div", { class: "sk sk-chip" }))) : null,
        h("div", { class: "tiles" }, [1, 2, 3, 4].map(() => h("div", { class: "sk sk-tile" }))),
      ];
      break;
    case "context":
      body = h("div", { class: "sk sk-panel" });
      break;
    default:
      body = [bar("50%", "sk-title"), bar("80%"), bar("65%")];
  }
  return h("div", { class: "skeleton", "aria-busy": "true", "aria-label": "Loading" }, body);
}
