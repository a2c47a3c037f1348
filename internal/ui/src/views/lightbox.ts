// An image from the kept files, large, above the tiles it came from.

import { h, icon, ICONS } from "../dom";
import { formatBytes, formatWhen } from "../format";
import type { FileItem, ViewEnv } from "../types";

export interface LightboxActions {
  close: () => void;
  step?: (delta: number) => void;
}

export function lightboxView(file: FileItem, position: [number, number], env: ViewEnv, act: LightboxActions): HTMLElement {
  const stage = h("div", { class: "lb-stage sk" });
  if (env.image) {
    env.image(file.uri).then(
      (src) => {
        stage.classList.remove("sk");
        stage.append(src ? h("img", { src, alt: file.name }) : h("p", { class: "muted" }, "The host sent no picture for this file."));
      },
      (err) => {
        stage.classList.remove("sk");
        stage.append(h("p", { class: "muted" }, `Could not load ${file.name}: ${String(err?.message ?? err)}`));
      },
    );
  }
  const [i, n] = position;
  const meta = [formatBytes(file.size), formatWhen(file.modified, env.now(), env.locale), n > 1 ? `${i + 1} of ${n}` : ""]
    .filter(Boolean)
    .join(" · ");
  return h(
    "figure",
    { class: "lightbox", role: "dialog", "aria-label": file.name },
    stage,
    h(
      "figcaption",
      { class: "lb-bar" },
      h("div", { class: "lb-text" }, h("span", { class: "tile-name" }, file.name), h("span", { class: "tile-meta" }, meta)),
      act.step && n > 1
        ? h("button", { class: "icon-btn", type: "button", "aria-label": "Previous", onclick: () => act.step!(-1) }, icon(ICONS.prev))
        : null,
      act.step && n > 1
        ? h("button", { class: "icon-btn", type: "button", "aria-label": "Next", onclick: () => act.step!(1) }, icon(ICONS.next))
        : null,
      env.save
        ? h("button", { class: "icon-btn", type: "button", "aria-label": `Save ${file.name}`, title: "Save", onclick: () => env.save!(file) }, icon(ICONS.save))
        : null,
      h("button", { class: "icon-btn", type: "button", "aria-label": "Close", title: "Close (Esc)", onclick: act.close }, icon(ICONS.close)),
    ),
  );
}
