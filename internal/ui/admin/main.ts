// Entry of the operator's page: sign in, follow the hash route, keep the
// workspace list live from the server's event stream, draw the views.

import "../src/style.css";
import "./admin.css";
import { h, replaceChildren } from "../src/dom";
import type { FileItem, FlowDoc, FlowSummary, ViewEnv } from "../src/types";
import { lightboxView } from "../src/views/lightbox";
import { Api, ApiError, tokenStore, type Config, type Me } from "./api";
import { beginSignIn, finishSignIn } from "./oidc";
import { href, parseRoute, type Route } from "./routes";
import { secretsView, settingsView } from "./views/catalogue";
import { flowPage, type SaveState } from "./views/flow";
import { frame, type Theme } from "./views/layout";
import { signInView } from "./views/signin";
import { filesTab, flowsTab, historyTab, pdfView, sitesTab, workspaceView, type FilesData, type HistoryData, type SitesData } from "./views/workspace";
import { workspacesView, type Workspace } from "./views/workspaces";

const THEME_KEY = "selenium-flow-admin-theme";
const root = document.getElementById("app")!;
const overlay = document.body.appendChild(h("div", { id: "overlay" }));

let cfg: Config = {};
let api: Api | undefined;
let me: Me | undefined;
let live: AbortController | undefined;
let workspaces: Workspace[] | undefined;
const cache = new Map<string, unknown>(); // API path -> answer, for redraws without a fetch
const blobs = new Map<string, Promise<string>>();
let saveState: SaveState = {};
let toast: string | undefined;

function theme(): Theme {
  const t = localStorage.getItem(THEME_KEY);
  if (t === "light" || t === "dark") return t;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function applyTheme(): void {
  document.documentElement.dataset.theme = theme();
}

const route = (): Route => parseRoute(location.hash);

function wsPath(ws: string, rest = ""): string {
  return `workspaces/${encodeURIComponent(ws)}${rest}`;
}

function env(files: FileItem[] = []): ViewEnv {
  return {
    displayMode: "fullscreen",
    now: () => new Date(),
    image: (uri) => {
      const f = files.find((x) => x.uri === uri);
      if (!f?.link || !api) return Promise.resolve(undefined);
      if (!blobs.has(f.link)) blobs.set(f.link, api.blobURL(f.link));
      return blobs.get(f.link)!;
    },
    openFile: (f, list) => openLightbox(f, list),
    save: (f) => void download(f),
    show: (uri) => {
      const r = route();
      const m = /^flow:\/\/flows\/(.+)$/.exec(uri);
      if (m && (r.view === "workspace" || r.view === "flow")) location.hash = href({ view: "flow", ws: r.ws, flow: decodeURIComponent(m[1]) });
    },
  };
}

async function download(f: FileItem): Promise<void> {
  if (!api || !f.link) return;
  try {
    const url = await api.blobURL(f.link);
    const a = h("a", { href: url, download: f.name });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    say(e);
  }
}

// The lightbox: the app's own view over the page; Esc closes, arrows step.
// A PDF shows the same way, in the browser's own viewer.
let lightbox: { list: FileItem[]; i: number; back?: HTMLElement | null; pdf?: string } | undefined;

async function openPdf(f: FileItem): Promise<void> {
  if (!api || !f.link) return;
  try {
    if (!blobs.has(f.link)) blobs.set(f.link, api.blobURL(f.link));
    lightbox = { list: [f], i: 0, back: document.activeElement as HTMLElement, pdf: await blobs.get(f.link)! };
    drawLightbox();
  } catch (e) {
    say(e);
  }
}

function openLightbox(f: FileItem, list: FileItem[]): void {
  const images = list.filter((x) => (x.mimeType ?? "").startsWith("image/"));
  lightbox = { list: images, i: Math.max(0, images.findIndex((x) => x.uri === f.uri)), back: document.activeElement as HTMLElement };
  drawLightbox();
}

function drawLightbox(): void {
  if (!lightbox) {
    replaceChildren(overlay);
    overlay.className = "";
    return;
  }
  const lb = lightbox;
  const f = lb.list[lb.i];
  overlay.className = "overlay";
  if (lb.pdf) {
    replaceChildren(overlay, pdfView(f, lb.pdf, closeLightbox));
    (overlay.querySelector('[aria-label="Close"]') as HTMLElement | null)?.focus();
    return;
  }
  replaceChildren(
    overlay,
    lightboxView(f, [lb.i, lb.list.length], env(lb.list), {
      close: closeLightbox,
      step: (d) => {
        lb.i = (lb.i + d + lb.list.length) % lb.list.length;
        drawLightbox();
      },
    }),
  );
  (overlay.querySelector('[aria-label="Close"]') as HTMLElement | null)?.focus();
}

function closeLightbox(): void {
  const back = lightbox?.back;
  lightbox = undefined;
  drawLightbox();
  back?.focus();
}

document.addEventListener("keydown", (e) => {
  if (!lightbox) return;
  if (e.key === "Escape") closeLightbox();
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    lightbox.i = (lightbox.i + (e.key === "ArrowRight" ? 1 : -1) + lightbox.list.length) % lightbox.list.length;
    drawLightbox();
  }
});

function say(e: unknown): void {
  toast = e instanceof Error ? e.message : String(e);
  if (e instanceof ApiError && e.status === 401) {
    signOut(toast);
    return;
  }
  render();
}

/** Fetches path into the cache (once per visit) and redraws. */
function load(path: string, force = false): unknown {
  if (!api) return undefined;
  if (!cache.has(path) || force) {
    if (!cache.has(path)) cache.set(path, undefined);
    api.get(path).then(
      (v) => {
        cache.set(path, v);
        render();
      },
      (e) => {
        cache.delete(path);
        say(e);
      },
    );
  }
  return cache.get(path);
}

/** Runs a change, then reloads what it touched. */
async function change(method: "POST" | "PUT" | "DELETE", path: string, reload: string[], body?: unknown): Promise<unknown> {
  try {
    const v = await api!.send(method, path, body);
    for (const p of reload) load(p, true);
    return v;
  } catch (e) {
    say(e);
    throw e;
  }
}

function mainView(r: Route): HTMLElement {
  const now = new Date();
  const endWs = (id: string) => void change("POST", wsPath(id, "/end"), []).catch(() => {});
  switch (r.view) {
    case "workspaces":
      return workspacesView(workspaces, now, (w) => endWs(w.id));
    case "secrets":
      return secretsView(load("secrets") as never);
    case "settings":
      return settingsView(load("settings") as never);
    case "flow": {
      const path = wsPath(r.ws, `/flows/${encodeURIComponent(r.flow)}`);
      const doc = load(path) as FlowDoc | undefined;
      return flowPage(r.ws, r.flow, doc, env(), {
        save: (text) => {
          saveState = { text };
          api!.send("PUT", path, text).then(
            (v) => {
              cache.set(path, v);
              saveState = { saved: true };
              load(wsPath(r.ws, "/flows"), true);
              render();
            },
            (e) => {
              if (e instanceof ApiError && e.status < 500 && e.status !== 401) {
                saveState = { text, error: e.message, problems: e.problems };
                render();
              } else say(e);
            },
          );
        },
        share: (shared) => void change("POST", `${path}/${shared ? "share" : "unshare"}`, [path, wsPath(r.ws, "/flows")]).catch(() => {}),
        remove: () =>
          void change("DELETE", path, [wsPath(r.ws, "/flows")]).then(
            () => (location.hash = href({ view: "workspace", ws: r.ws, tab: "flows" })),
            () => {},
          ),
      }, saveState);
    }
    case "workspace": {
      const ws = workspaces?.find((w) => w.id === r.ws);
      const filesPath = wsPath(r.ws, "/files");
      const act = {
        end: () => endWs(r.ws),
        deleteFile: (f: FileItem) => void change("DELETE", `${filesPath}/${encodeURIComponent(f.name)}`, [filesPath]).catch(() => {}),
        clearFolder: (folder: string) => void change("DELETE", wsPath(r.ws, `/folders/${folder}`), [filesPath]).catch(() => {}),
        forgetSite: (origin: string) => void change("DELETE", wsPath(r.ws, `/sites/${encodeURIComponent(origin)}`), [wsPath(r.ws, "/sites")]).catch(() => {}),
        clearSites: () => void change("DELETE", wsPath(r.ws, "/sites"), [wsPath(r.ws, "/sites")]).catch(() => {}),
        openPdf: (f: FileItem) => void openPdf(f),
      };
      let body: HTMLElement;
      switch (r.tab) {
        case "flows":
          body = flowsTab(load(wsPath(r.ws, "/flows")) as { flows: FlowSummary[] } | undefined, env());
          break;
        case "sites":
          body = sitesTab(load(wsPath(r.ws, "/sites")) as SitesData | undefined, now, act);
          break;
        case "history":
          body = historyTab(load(wsPath(r.ws, "/history")) as HistoryData | undefined, now);
          break;
        default: {
          const d = load(filesPath) as FilesData | undefined;
          body = filesTab(d, env(d?.files), act);
        }
      }
      return workspaceView(ws, r.ws, r.tab, body, act);
    }
  }
}

function render(): void {
  applyTheme();
  if (!api || !me) return;
  const r = route();
  const main = mainView(r);
  if (toast) {
    main.prepend(
      h("div", { class: "toast", role: "alert" }, h("span", null, toast), h("button", { class: "link-btn", type: "button", onclick: () => ((toast = undefined), render()) }, "Dismiss")),
    );
  }
  const y = window.scrollY;
  const focus = focusKey(document.activeElement);
  replaceChildren(
    root,
    frame(me, r, theme(), {
      signOut: () => signOut(),
      toggleTheme: () => {
        localStorage.setItem(THEME_KEY, theme() === "dark" ? "light" : "dark");
        render();
        document.getElementById("theme-toggle")?.focus();
      },
    }, main),
  );
  window.scrollTo(0, y);
  if (focus) (root.querySelector(focus) as HTMLElement | null)?.focus();
}

/**
 * A selector that finds the focused control again after a redraw (a pushed
 * workspace list redraws the page), so a keyboard user keeps their place.
 */
function focusKey(el: Element | null): string | undefined {
  if (!el || el === document.body || !root.contains(el)) return undefined;
  for (const attr of ["id", "aria-label", "href", "data-uri"]) {
    const v = el.getAttribute(attr);
    if (v) return `${el.tagName.toLowerCase()}[${attr}="${CSS.escape(v)}"]`;
  }
  return undefined;
}

/** Keeps the workspace list live: one event stream, reopened when it drops. */
async function follow(signal: AbortSignal): Promise<void> {
  for (let attempt = 0; !signal.aborted && attempt < 1000; attempt++) {
    try {
      await api!.stream(
        "workspaces/events",
        (name, data) => {
          if (name !== "workspaces") return;
          workspaces = JSON.parse(data).workspaces;
          const r = route();
          if (r.view === "workspaces" || r.view === "workspace") render();
        },
        signal,
      );
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof ApiError && e.status === 401) return say(e);
    }
    await new Promise((ok) => setTimeout(ok, Math.min(30000, 1000 * 2 ** Math.min(attempt, 5))));
  }
}

/** Why the server refused a token, as the sign-in form says it; sso: the token came from the OIDC provider. */
function refusedToken(e: unknown, sso: boolean): string {
  if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) return String((e as Error).message ?? e);
  if (!sso) return "That token is not accepted by this server; check it against FLOW_TOKENS.";
  // The server's own sentence names the claim or role that failed and what to do.
  return `The sign-in provider signed you in, but this server refused its token: ${e.message}`;
}

async function signIn(token: string, sso = false): Promise<void> {
  const candidate = new Api(token);
  try {
    me = await candidate.get<Me>("me");
  } catch (e) {
    showSignIn(refusedToken(e, sso));
    return;
  }
  api = candidate;
  tokenStore.set(token);
  live = new AbortController();
  void follow(live.signal);
  if (!location.hash) history.replaceState(null, "", href({ view: "workspaces" }));
  render();
  document.getElementById("main")?.focus();
}

function signOut(reason?: string): void {
  live?.abort();
  tokenStore.clear();
  api = me = workspaces = undefined;
  cache.clear();
  for (const b of blobs.values()) b.then((u) => URL.revokeObjectURL(u), () => {});
  blobs.clear();
  toast = undefined;
  lightbox = undefined;
  drawLightbox();
  showSignIn(reason);
}

function showSignIn(error?: string): void {
  applyTheme();
  replaceChildren(
    root,
    signInView(cfg, { token: (t) => void signIn(t), oidc: cfg.oidc ? () => void beginSignIn(cfg.oidc!.issuer, cfg.oidc!.clientId).catch((e) => showSignIn(e.message)) : undefined }, error),
  );
}

window.addEventListener("hashchange", () => {
  saveState = {};
  toast = undefined;
  render();
});

async function boot(): Promise<void> {
  applyTheme();
  try {
    cfg = await (await fetch("/admin/api/config", { credentials: "omit" })).json();
  } catch {
    cfg = {};
  }
  try {
    const t = await finishSignIn();
    if (t) return signIn(t, true);
  } catch (e) {
    return showSignIn((e as Error).message);
  }
  const t = tokenStore.get();
  if (t !== null) return signIn(t);
  showSignIn();
}

void boot();
