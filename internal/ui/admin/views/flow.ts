// One flow: the app's own flow view, and its document in an editor whose
// validation problems are shown in place, beside the text.

import { h } from "../../src/dom";
import type { FlowDoc, ViewEnv } from "../../src/types";
import { skeleton } from "../../src/views/common";
import { flowView } from "../../src/views/flow";
import { confirmButton } from "./workspace";

export interface FlowActions {
  save: (text: string) => void;
  share: (shared: boolean) => void;
  remove: () => void;
}

export interface SaveState {
  error?: string;
  problems?: string[];
  saved?: boolean;
  text?: string; // the text the problems are about
}

export function flowPage(ws: string, name: string, doc: FlowDoc | undefined, env: ViewEnv, act: FlowActions, st: SaveState = {}): HTMLElement {
  const crumbs = h(
    "nav",
    { class: "crumbs", "aria-label": "Breadcrumb" },
    h("a", { href: "#/workspaces" }, "Workspaces"),
    h("span", { class: "sep" }, "/"),
    h("a", { href: `#/workspaces/${encodeURIComponent(ws)}/flows` }, ws),
    h("span", { class: "sep" }, "/"),
    h("span", null, name),
  );
  if (!doc) return h("section", { class: "view view-flow-page" }, crumbs, skeleton("flow"));
  const text = st.text ?? JSON.stringify(doc, null, 2);
  const bad = !!(st.error || st.problems?.length);
  const editor = h("textarea", {
    id: "flow-doc",
    class: "flow-editor mono",
    spellcheck: "false",
    rows: "16",
    "aria-label": `Flow document ${name}`,
    "aria-invalid": bad ? "true" : undefined,
    "aria-describedby": bad ? "flow-problems" : undefined,
  });
  editor.value = text;
  return h(
    "section",
    { class: "view view-flow-page" },
    crumbs,
    h(
      "div",
      { class: "flow-cols" },
      h("div", { class: "flow-col" }, flowView(doc, env)),
      h(
        "div",
        { class: "flow-col" },
        h("h3", { class: "section-title" }, "Document"),
        editor,
        bad
          ? h(
              "div",
              { class: "form-error", id: "flow-problems", role: "alert" },
              h("p", null, st.error ?? "The document is not valid."),
              st.problems?.length ? h("ul", null, st.problems.map((p) => h("li", { class: "mono small" }, p))) : null,
            )
          : st.saved
            ? h("p", { class: "form-ok", role: "status" }, "Saved.")
            : null,
        h(
          "div",
          { class: "actions" },
          h("button", { class: "btn btn-primary", type: "button", id: "flow-save", onclick: () => act.save(editor.value) }, "Save"),
          h("button", { class: "btn", type: "button", id: "flow-share", onclick: () => act.share(!doc.shared) }, doc.shared ? "Unshare" : "Share"),
          Object.assign(confirmButton("Delete", "Confirm delete", act.remove, { id: "flow-delete" }), { className: "btn btn-danger" }),
        ),
      ),
    ),
  );
}
