// session://files and session://files/{folder}: kept files as tiles, folders as chips.

import { h, icon, ICONS } from "../dom";
import { extension, formatBytes, formatWhen, isImage } from "../format";
import type { FileItem, FilesData, FolderData, FolderRef, ViewEnv } from "../types";
import { noServerTools } from "../types";
import { empty, notice } from "./common";

function asFiles(v: unknown): FileItem[] {
  return Array.isArray(v) ? v.filter((f) => f && typeof f === "object" && typeof f.name === "string") : [];
}

export function filesView(data: unknown, env: ViewEnv): HTMLElement {
  const d = (data && typeof data === "object" ? data : {}) as FilesData;
  const folders: FolderRef[] = Array.isArray(d.folders) ? d.folders.filter((f) => f && typeof f.name === "string") : [];
  const files = asFiles(d.files);
  const view = h("section", { class: "view view-files" });
  if (folders.length) {
    view.append(
      h(
        "nav",
        { class: "chips", "aria-label": "Folders" },
        folders.map((f) => {
          const count = typeof f.count === "number" ? h("span", { class: "chip-count" }, String(f.count)) : null;
          return env.show
            ? h("button", { class: "chip", type: "button", "data-uri": f.uri, onclick: () => env.show!(f.uri) }, icon(ICONS.folder), f.name, count)
            : h("span", { class: "chip chip-static", "data-uri": f.uri, "aria-disabled": "true" }, icon(ICONS.folder), f.name, count);
        }),
      ),
    );
    if (!env.show) view.append(notice(noServerTools("folders")));
  }
  if (!files.length) {
    view.append(empty("No kept files yet", "Screenshots, PDFs and downloads the browser keeps show up here."));
  } else {
    view.append(tiles(files, env));
  }
  return view;
}

export function folderView(data: unknown, env: ViewEnv): HTMLElement {
  const d = (data && typeof data === "object" ? data : {}) as FolderData;
  const files = asFiles(d.files);
  const name = typeof d.folder === "string" ? d.folder : "this folder";
  return h(
    "section",
    { class: "view view-folder" },
    files.length ? tiles(files, env) : empty(`No files in ${name}`, emptyHint(name)),
  );
}

function emptyHint(folder: string): string {
  switch (folder) {
    case "screenshots":
      return "The screenshot tool keeps its pictures here.";
    case "downloads":
      return "Files the browser downloads land here.";
    default:
      return "Files kept in this folder show up here.";
  }
}

export function tiles(files: FileItem[], env: ViewEnv): HTMLElement {
  return h("div", { class: "tiles" }, files.map((f) => tile(f, files, env)));
}

function tile(f: FileItem, list: FileItem[], env: ViewEnv): HTMLElement {
  const image = isImage(f.mimeType, f.name);
  const thumb = h("div", { class: "thumb" }, h("span", { class: "ext" }, icon(image ? ICONS.image : ICONS.file), extension(f.name)));
  if (image && env.image) {
    thumb.classList.add("sk");
    env.image(f.uri).then(
      (src) => {
        thumb.classList.remove("sk");
        if (src) {
          thumb.textContent = "";
          thumb.append(h("img", { src, alt: "", loading: "lazy", decoding: "async" }));
        }
      },
      () => thumb.classList.remove("sk"),
    );
  }
  const meta = [formatBytes(f.size), formatWhen(f.modified, env.now(), env.locale)].filter(Boolean).join(" · ");
  const body = [
    thumb,
    h("div", { class: "tile-text" }, h("span", { class: "tile-name", title: f.name }, f.name), h("span", { class: "tile-meta" }, meta)),
  ];
  const openable = image && env.image && env.openFile;
  const el = openable
    ? h("button", { class: "tile", type: "button", "data-uri": f.uri, "aria-label": `View ${f.name}`, onclick: () => env.openFile!(f, list) }, body)
    : h("div", { class: "tile tile-static", "data-uri": f.uri }, body);
  if (!openable && env.save) {
    el.append(
      h("button", { class: "icon-btn tile-save", type: "button", title: `Save ${f.name}`, "aria-label": `Save ${f.name}`, onclick: () => env.save!(f) }, icon(ICONS.save)),
    );
  }
  return el;
}
