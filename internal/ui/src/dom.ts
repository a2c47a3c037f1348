// A tiny hyperscript helper: enough DOM building for the views without a framework.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
      } else if (key === "class") {
        el.className = String(value);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

/** An inline SVG icon from a 24×24 path list (stroke icons). */
export function icon(paths: string, label?: string): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  for (const d of paths.split("|")) {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    svg.appendChild(p);
  }
  return svg;
}

export const ICONS = {
  back: "M15 18l-6-6 6-6",
  expand: "M4 9V4h5|M20 9V4h-5|M4 15v5h5|M20 15v5h-5",
  collapse: "M9 4v5H4|M15 4v5h5|M9 20v-5H4|M15 20v-5h5",
  folder: "M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z",
  file: "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z|M14 3v5h5",
  image: "M4 5h16v14H4z|M4 16l5-5 4 4 3-3 4 4|M15 9.5a1 1 0 1 0 0-.01",
  flow: "M5 6h6|M5 12h10|M5 18h14",
  globe: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18|M3 12h18|M12 3c3 3 3 15 0 18|M12 3c-3 3-3 15 0 18",
  close: "M6 6l12 12|M18 6L6 18",
  prev: "M15 18l-6-6 6-6",
  next: "M9 6l6 6-6 6",
  save: "M12 4v11|M7 10l5 5 5-5|M5 20h14",
  lock: "M7 11V8a5 5 0 0 1 10 0v3|M5 11h14v9H5z",
  chevron: "M9 6l6 6-6 6",
};

/** Removes all children of el and appends the given nodes. */
export function replaceChildren(el: Element, ...nodes: Child[]): void {
  el.textContent = "";
  append(el, nodes);
}
