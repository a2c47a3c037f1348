// One workspace: its kept files (the app's own tiles and lightbox), its
// flows (the app's flow cards), its site data and its history, as tabs.

import { h } from "../../src/dom";
import { formatBytes, formatWhen } from "../../src/format";
import type { FileItem, FlowSummary, ViewEnv } from "../../src/types";
import { empty, notice, skeleton } from "../../src/views/common";
import { tiles } from "../../src/views/files";
import { flowsView } from "../../src/views/flows";
import { href, type Tab } from "../routes";
import { stateBadge, type Workspace } from "./workspaces";

export interface FilesData {
  folders: { name: string; count: number }[];
  files: FileItem[];
}
export interface SitesData {
  sites: { origin: string; cookies: number; storage: number; savedAt?: string }[];
  kept: boolean;
  note?: string;
}
export interface HistoryData {
  visits: { url: string; title?: string; at: string }[];
  kept: boolean;
  note?: string;
}

/**
 * A button that asks once more before it destroys something: the first
 * press turns it into "Confirm …", the second runs act; leaving it (blur)
 * puts it back.
 */
export function confirmButton(label: string, confirm: string, act: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = h("button", { class: "link-btn danger", type: "button", ...attrs }, label);
  let armed = false;
  b.addEventListener("click", () => {
    if (armed) return act();
    armed = true;
    b.textContent = confirm;
    b.classList.add("armed");
  });
  b.addEventListener("blur", () => {
    armed = false;
    b.textContent = label;
    b.classList.remove("armed");
  });
  return b;
}

export interface WorkspaceActions {
  end: () => void;
  deleteFile: (f: FileItem) => void;
  clearFolder: (folder: string) => void;
  forgetSite: (origin: string) => void;
  clearSites: () => void;
  /** Shows a kept PDF in place (the app's lightbox shows pictures). */
  openPdf?: (f: FileItem) => void;
}

/** A kept PDF over the page, in the browser's own viewer. */
export function pdfView(f: FileItem, src: string, close: () => void): HTMLElement {
  return h(
    "figure",
    { class: "lightbox pdfbox", role: "dialog", "aria-label": f.name },
    h("iframe", { class: "pdf-frame", src, title: f.name }),
    h(
      "figcaption",
      { class: "lb-bar" },
      h("div", { class: "lb-text" }, h("span", { class: "tile-name" }, f.name), h("span", { class: "tile-meta" }, formatBytes(f.size))),
      h("button", { class: "icon-btn", type: "button", "aria-label": "Close", title: "Close (Esc)", onclick: close }, "×"),
    ),
  );
}

const TABS: [Tab, string][] = [
  ["files", "Files"],
  ["flows", "Flows"],
  ["sites", "Site data"],
  ["history", "History"],
];

export function workspaceView(ws: Workspace | undefined, id: string, tab: Tab, body: HTMLElement, act: WorkspaceActions): HTMLElement {
  return h(
    "section",
    { class: "view view-workspace" },
    h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("a", { href: "#/workspaces" }, "Workspaces"), h("span", { class: "sep" }, "/"), h("span", null, id)),
    h(
      "header",
      { class: "ws-head" },
      h("h1", { class: "page-h" }, ws ? `${ws.owner} / ${ws.name}` : id),
      ws ? stateBadge(ws.state) : null,
      ws?.url ? h("span", { class: "ws-url mono small" }, ws.url) : null,
      ws && ws.state !== "closed" ? h("button", { class: "btn btn-danger", type: "button", id: "end-browser", onclick: act.end }, "End browser") : null,
    ),
    h(
      "nav",
      { class: "tabs", "aria-label": "Workspace" },
      TABS.map(([t, label]) =>
        h("a", { class: `tab${t === tab ? " current" : ""}`, href: href({ view: "workspace", ws: id, tab: t }), "aria-current": t === tab ? "page" : undefined }, label),
      ),
    ),
    body,
  );
}

export function filesTab(d: FilesData | undefined, env: ViewEnv, act: WorkspaceActions): HTMLElement {
  if (!d) return skeleton("files");
  const view = h("div", { class: "tab-body" });
  view.append(
    h(
      "div",
      { class: "chips", role: "group", "aria-label": "Folders" },
      d.folders.map((f) =>
        h(
          "span",
          { class: "chip chip-static" },
          f.name,
          h("span", { class: "chip-count" }, String(f.count)),
          f.count ? confirmButton("clear", `clear all ${f.count}?`, () => act.clearFolder(f.name), { "aria-label": `Clear ${f.name}` }) : null,
        ),
      ),
    ),
  );
  if (!d.files.length) {
    view.append(empty("No kept files", "Screenshots, PDFs and downloads this workspace keeps show up here."));
    return view;
  }
  view.append(tiles(d.files, env));
  view.append(
    h(
      "table",
      { class: "grid-table small" },
      h("caption", { class: "sr-only" }, "Kept files"),
      h("thead", null, h("tr", null, h("th", null, "Name"), h("th", null, "Folder"), h("th", null, "Size"), h("th", null, "Kept"), h("th", null, ""))),
      h(
        "tbody",
        null,
        d.files.map((f) =>
          h(
            "tr",
            null,
            h("td", { class: "mono" }, f.name),
            h("td", null, f.folder ?? ""),
            h("td", null, formatBytes(f.size)),
            h("td", null, formatWhen(f.modified, env.now())),
            h(
              "td",
              { class: "row-actions" },
              f.mimeType === "application/pdf" && act.openPdf
                ? h("button", { class: "link-btn", type: "button", "aria-label": `View ${f.name}`, onclick: () => act.openPdf!(f) }, "View")
                : null,
              env.save ? h("button", { class: "link-btn", type: "button", "aria-label": `Download ${f.name}`, onclick: () => env.save!(f) }, "Download") : null,
              confirmButton("Delete", "Confirm delete", () => act.deleteFile(f), { "aria-label": `Delete ${f.name}` }),
            ),
          ),
        ),
      ),
    ),
  );
  return view;
}

export function flowsTab(d: { flows: FlowSummary[] } | undefined, env: ViewEnv): HTMLElement {
  if (!d) return skeleton("flows");
  return h("div", { class: "tab-body" }, flowsView(d, env));
}

export function sitesTab(d: SitesData | undefined, now: Date, act: WorkspaceActions): HTMLElement {
  if (!d) return skeleton();
  const view = h("div", { class: "tab-body" });
  if (!d.kept) view.append(notice(d.note ?? "This server keeps no site data."));
  if (!d.sites.length) {
    view.append(empty("No saved site data", "Cookies and storage a workspace keeps per origin show up here."));
    return view;
  }
  const clear = confirmButton("Clear all site data", "Confirm: clear all", act.clearSites);
  clear.className = "btn btn-danger";
  view.append(clear);
  view.append(
    h(
      "ul",
      { class: "plain-list" },
      d.sites.map((s) =>
        h(
          "li",
          { class: "plain-row" },
          h("span", { class: "mono" }, s.origin),
          h("span", { class: "muted small" }, `${s.cookies} cookies · ${s.storage} keys${s.savedAt ? " · saved " + formatWhen(s.savedAt, now) : ""}`),
          confirmButton("Forget", "Confirm forget", () => act.forgetSite(s.origin), { "aria-label": `Forget ${s.origin}` }),
        ),
      ),
    ),
  );
  return view;
}

export function historyTab(d: HistoryData | undefined, now: Date): HTMLElement {
  if (!d) return skeleton();
  const view = h("div", { class: "tab-body" });
  if (!d.kept) view.append(notice(d.note ?? "This server keeps no history."));
  if (!d.visits.length) {
    view.append(empty("No history", "Pages this workspace's browser visits show up here."));
    return view;
  }
  view.append(
    h(
      "ol",
      { class: "plain-list" },
      d.visits.map((v) => h("li", { class: "plain-row" }, h("span", { class: "mono" }, v.url), h("span", { class: "muted small" }, formatWhen(v.at, now)))),
    ),
  );
  return view;
}
