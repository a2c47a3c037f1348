// The app shell: a navigation stack of shown resources, drawn by pure views.
// Everything it needs from the host comes through Host, which the SDK's App
// satisfies and tests fake.

import type { App } from "@modelcontextprotocol/ext-apps";
import { h, icon, ICONS, replaceChildren } from "./dom";
import { guessComponent, labelFor } from "./format";
import type { FileItem, ShowResult, ViewEnv } from "./types";
import { empty, skeleton } from "./views/common";
import { contextView } from "./views/context";
import { filesView, folderView } from "./views/files";
import { flowView } from "./views/flow";
import { flowsView } from "./views/flows";
import { lightboxView } from "./views/lightbox";

export type Host = Pick<
  App,
  | "getHostCapabilities"
  | "getHostContext"
  | "callServerTool"
  | "readServerResource"
  | "updateModelContext"
  | "requestDisplayMode"
  | "downloadFile"
  | "openLink"
>;

type ToolResult = Awaited<ReturnType<App["callServerTool"]>>;
type DisplayMode = ViewEnv["displayMode"];

export interface Entry {
  uri: string;
  component?: string;
  state: "loading" | "ready" | "error" | "cancelled";
  data?: unknown;
  error?: string;
  lightbox?: { files: FileItem[]; index: number };
  /** The drawn view, kept so Back returns to it as it was (scroll position included). */
  el?: HTMLElement;
  /** scrollLeft of the view's horizontal scrollers when it was last hidden. */
  scroll?: number[];
}

export const VIEWS: Record<string, (data: unknown, env: ViewEnv) => HTMLElement> = {
  context: contextView,
  files: filesView,
  folder: folderView,
  flows: flowsView,
  flow: flowView,
};

/** Reads a show result: structuredContent {component, uri, data}, or the same JSON as text. */
export function entryFromResult(result: ToolResult | undefined, uri: string | undefined): Entry {
  const fallback = uri ?? "";
  if (!result) return { uri: fallback, state: "error", error: "The host sent no result." };
  const text = (result.content ?? [])
    .map((c) => (c && c.type === "text" ? c.text : ""))
    .filter(Boolean)
    .join("\n");
  if (result.isError) return { uri: fallback, state: "error", error: text || "The server refused." };
  let sc = result.structuredContent as Partial<ShowResult> | undefined;
  if (!sc || typeof sc.component !== "string") {
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed.component === "string") sc = parsed;
    } catch {
      // not JSON: fall through
    }
  }
  if (!sc || typeof sc.component !== "string") {
    return { uri: fallback, state: "error", error: "The answer had nothing for this app to draw." };
  }
  return { uri: typeof sc.uri === "string" ? sc.uri : fallback, component: sc.component, state: "ready", data: sc.data };
}

export interface ShellOptions {
  now?: () => Date;
}

export class Shell {
  stack: Entry[] = [];
  private images = new Map<string, Promise<string | undefined>>();
  private mode: DisplayMode | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: Host,
    opts: ShellOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    root.ownerDocument.addEventListener("keydown", (e) => this.onKey(e));
    this.render();
  }

  // ---- what the host tells us ----

  /** The show call's arguments are known: draw a skeleton of what is coming. */
  toolInput(args: Record<string, unknown> | undefined): void {
    const uri = typeof args?.uri === "string" ? args.uri : "";
    if (this.stack.length > 1 || this.stack[0]?.state === "ready") return;
    this.stack = [{ uri, component: guessComponent(uri), state: "loading" }];
    this.render();
  }

  /** The show call that opened this app finished: its result is the root of the stack. */
  toolResult(result: ToolResult): void {
    const uri = this.stack[0]?.uri;
    this.stack = [entryFromResult(result, uri)];
    this.changed();
  }

  toolCancelled(): void {
    const top = this.top();
    if (!top) this.stack = [{ uri: "", state: "cancelled" }];
    else if (top.state === "loading") top.state = "cancelled";
    else return;
    this.render();
  }

  /** The host context changed (the fields in changed), or the connection is up: redraw. */
  hostChanged(changed?: { displayMode?: DisplayMode }): void {
    if (changed?.displayMode) this.mode = changed.displayMode;
    for (const e of this.stack) e.el = undefined;
    this.render();
  }

  // ---- navigation ----

  /** Drill into a resource: push it, ask the server's show tool for it. */
  async show(uri: string): Promise<void> {
    if (!this.serverTools()) return;
    const entry: Entry = { uri, component: guessComponent(uri), state: "loading" };
    this.stack.push(entry);
    this.render();
    await this.load(entry);
  }

  /** Pop the stack; no server call. */
  back(): void {
    if (this.stack.length < 2) return;
    this.stack.pop();
    this.changed();
  }

  private async load(entry: Entry): Promise<void> {
    let next: Entry;
    try {
      const result = await this.host.callServerTool({ name: "show", arguments: { uri: entry.uri } });
      next = entryFromResult(result, entry.uri);
    } catch (err) {
      next = { uri: entry.uri, state: "error", error: errorText(err) };
    }
    if (!this.stack.includes(entry)) return; // Back was pressed meanwhile
    Object.assign(entry, next, { el: undefined });
    if (this.top() === entry) this.changed();
  }

  private retry(entry: Entry): void {
    Object.assign(entry, { state: "loading", error: undefined, el: undefined });
    this.render();
    void this.load(entry);
  }

  // ---- lightbox ----

  openFile(file: FileItem, files: FileItem[]): void {
    const top = this.top();
    if (!top) return;
    const images = files.filter((f) => f.mimeType?.startsWith("image/") || /\.(png|jpe?g|gif|webp)$/i.test(f.name));
    const index = Math.max(0, images.findIndex((f) => f.uri === file.uri));
    top.lightbox = { files: images.length ? images : [file], index };
    this.changed();
  }

  closeLightbox(): void {
    const top = this.top();
    if (!top?.lightbox) return;
    top.lightbox = undefined;
    this.changed();
  }

  private stepLightbox(delta: number): void {
    const lb = this.top()?.lightbox;
    if (!lb) return;
    lb.index = (lb.index + delta + lb.files.length) % lb.files.length;
    this.changed();
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.top()?.lightbox) return;
    if (e.key === "Escape") this.closeLightbox();
    else if (e.key === "ArrowLeft") this.stepLightbox(-1);
    else if (e.key === "ArrowRight") this.stepLightbox(1);
  }

  // ---- host capabilities ----

  private caps() {
    return this.host.getHostCapabilities() ?? {};
  }

  private serverTools(): boolean {
    return !!this.caps().serverTools;
  }

  displayMode(): DisplayMode {
    return this.mode ?? this.host.getHostContext()?.displayMode ?? "inline";
  }

  private canFullscreen(): boolean {
    return !!this.host.getHostContext()?.availableDisplayModes?.includes("fullscreen");
  }

  private image(uri: string): Promise<string | undefined> {
    let p = this.images.get(uri);
    if (!p) {
      p = this.host.readServerResource({ uri }).then((r) => {
        const c = r.contents?.[0];
        if (c && "blob" in c && typeof c.blob === "string") return `data:${c.mimeType || "image/png"};base64,${c.blob}`;
        return undefined;
      });
      p.catch(() => this.images.delete(uri));
      this.images.set(uri, p);
    }
    return p;
  }

  private async save(file: FileItem): Promise<void> {
    const cached = await this.images.get(file.uri)?.catch(() => undefined);
    const blob = cached?.slice(cached.indexOf(",") + 1);
    try {
      await this.host.downloadFile({
        contents: [
          blob
            ? { type: "resource", resource: { uri: file.uri, mimeType: file.mimeType, blob } }
            : { type: "resource_link", uri: file.uri, name: file.name, mimeType: file.mimeType },
        ],
      });
    } catch {
      // the host said no; nothing to undo
    }
  }

  private async toggleFullscreen(): Promise<void> {
    const want: DisplayMode = this.displayMode() === "fullscreen" ? "inline" : "fullscreen";
    let mode: DisplayMode;
    try {
      mode = (await this.host.requestDisplayMode({ mode: want })).mode;
    } catch {
      return;
    }
    this.hostChanged({ displayMode: mode });
  }

  env(): ViewEnv {
    const caps = this.caps();
    return {
      show: caps.serverTools ? (uri) => void this.show(uri) : undefined,
      image: caps.serverResources ? (uri) => this.image(uri) : undefined,
      openFile: caps.serverResources ? (f, list) => this.openFile(f, list) : undefined,
      save: caps.downloadFile ? (f) => void this.save(f) : undefined,
      openLink: caps.openLinks ? (url) => void this.host.openLink({ url }).catch(() => undefined) : undefined,
      displayMode: this.displayMode(),
      locale: this.host.getHostContext()?.locale,
      now: this.now,
    };
  }

  // ---- drawing ----

  top(): Entry | undefined {
    return this.stack[this.stack.length - 1];
  }

  private changed(): void {
    this.render();
    this.tellModel();
  }

  /** Tell the model what the person now sees (the host keeps only the last update). */
  private tellModel(): void {
    const e = this.top();
    if (!e || !this.caps().updateModelContext) return;
    let text: string;
    if (e.state === "error") text = `The person tried to open ${e.uri}, which failed: ${e.error}`;
    else if (e.lightbox) {
      const f = e.lightbox.files[e.lightbox.index];
      text = `The person is looking at ${f.uri} (image) in ${e.uri} (${e.component}).`;
    } else text = `The person is looking at ${e.uri} (${e.component}).`;
    this.host
      .updateModelContext({
        content: [{ type: "text", text }],
        structuredContent: { uri: e.uri, component: e.component ?? null, path: this.stack.map((s) => s.uri) },
      })
      .catch(() => undefined);
  }

  render(): void {
    const top = this.top();
    const mode = this.displayMode();
    const doc = this.root.ownerDocument.documentElement;
    doc.dataset.mode = mode;
    for (const e of this.stack) {
      if (e.el?.isConnected) e.scroll = scrollers(e.el).map((s) => s.scrollLeft);
    }
    replaceChildren(this.root, this.toolbar(), h("main", { class: "content" }, top ? this.body(top) : skeleton()));
    if (top?.el && top.scroll) {
      scrollers(top.el).forEach((s, i) => (s.scrollLeft = top.scroll![i] ?? 0));
    }
  }

  private toolbar(): HTMLElement {
    const crumbs = this.stack.map((e, i) =>
      h(
        "span",
        { class: i === this.stack.length - 1 ? "crumb current" : "crumb" },
        e.state === "loading" && !e.component ? "Loading…" : labelFor(e.component, e.uri, e.data),
      ),
    );
    const top = this.top();
    const fs = this.displayMode() === "fullscreen";
    return h(
      "header",
      { class: "toolbar" },
      this.stack.length > 1
        ? h("button", { class: "back", type: "button", onclick: () => this.back() }, icon(ICONS.back), "Back")
        : null,
      h(
        "nav",
        { class: "crumbs", "aria-label": "Path" },
        crumbs.flatMap((c, i) => (i ? [h("span", { class: "sep" }, "/"), c] : [c])),
        top?.state === "ready" && countFor(top) !== undefined ? h("span", { class: "crumb-count" }, String(countFor(top))) : null,
      ),
      top?.uri ? h("span", { class: "uri", title: top.uri }, top.uri) : null,
      this.canFullscreen()
        ? h(
            "button",
            { class: "icon-btn fullscreen", type: "button", title: fs ? "Exit fullscreen" : "Fullscreen", "aria-label": fs ? "Exit fullscreen" : "Fullscreen", onclick: () => void this.toggleFullscreen() },
            icon(fs ? ICONS.collapse : ICONS.expand),
          )
        : null,
    );
  }

  private body(e: Entry): HTMLElement {
    if (e.state === "loading") return skeleton(e.component);
    if (e.state === "cancelled") return empty("Nothing to show", "The request was cancelled before it finished.");
    if (e.state === "error") {
      return h(
        "div",
        { class: "error", role: "alert" },
        h("p", { class: "empty-title" }, "Couldn't open this"),
        h("p", { class: "empty-hint" }, e.error ?? ""),
        this.stack.length > 1 && this.serverTools()
          ? h("button", { class: "more", type: "button", onclick: () => this.retry(e) }, "Try again")
          : null,
      );
    }
    const env = this.env();
    if (!e.el) {
      const view = VIEWS[e.component ?? ""];
      e.el = view
        ? view(e.data, env)
        : empty(`Nothing to draw for ${e.component}`, "This app draws session, files, folders, flows and a flow.");
    }
    if (!e.lightbox) return e.el;
    const lb = e.lightbox;
    const file = lb.files[lb.index];
    return h(
      "div",
      { class: "with-lightbox" },
      lightboxView(file, [lb.index, lb.files.length], env, { close: () => this.closeLightbox(), step: (d) => this.stepLightbox(d) }),
      e.el,
    );
  }
}

/** How many things a list view shows, for the toolbar. */
function countFor(e: Entry): number | undefined {
  const d = (e.data ?? {}) as Record<string, unknown>;
  const list = e.component === "flows" ? d.flows : e.component === "files" || e.component === "folder" ? d.files : undefined;
  return Array.isArray(list) ? list.length : undefined;
}

function scrollers(el: HTMLElement): HTMLElement[] {
  return Array.from(el.querySelectorAll<HTMLElement>(".scroller"));
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
