// session://current: the caller's browser session as one card.

import { h, icon, ICONS } from "../dom";
import { formatDuration, formatWhen } from "../format";
import type { SessionContext, ViewEnv } from "../types";
import { badge, empty } from "./common";

export function contextView(data: unknown, env: ViewEnv): HTMLElement {
  const s = (data && typeof data === "object" ? data : {}) as SessionContext;
  if (!s.state || s.state === "closed") {
    return h(
      "section",
      { class: "view view-context" },
      empty("No browser open", "open_session starts one; kept files and saved flows stay either way.", ICONS.globe),
    );
  }
  const live = s.state === "live";
  const win = s.window && s.window.width && s.window.height ? `${s.window.width} × ${s.window.height}` : "";
  const rows: [string, string][] = [
    ["Browser", s.browser ?? ""],
    ["Window", win],
    ["Principal", s.principal ?? ""],
    ["Opened", formatWhen(s.openedAt, env.now(), env.locale)],
    ["Last used", formatWhen(s.lastUsedAt, env.now(), env.locale)],
    ["Idle timeout", formatDuration(s.idleTimeout)],
  ];
  const url = s.url ?? "";
  const urlEl = url
    ? env.openLink && /^https?:/i.test(url)
      ? h("button", { class: "link url", type: "button", title: "Open in your browser", onclick: () => env.openLink!(url) }, url)
      : h("span", { class: "url" }, url)
    : h("span", { class: "url muted" }, "about:blank");
  return h(
    "section",
    { class: "view view-context" },
    h(
      "article",
      { class: "panel session-card" },
      h(
        "header",
        { class: "session-head" },
        h("div", { class: "session-icon" }, icon(ICONS.globe)),
        h(
          "div",
          { class: "session-name" },
          h("h2", null, s.session ? `Session ${s.session}` : "Browser session"),
          h("p", { class: "page-title" }, s.title || "Untitled page"),
        ),
        badge(live ? "Live" : "Idle", live ? "ok" : "warn"),
      ),
      h("div", { class: "session-url" }, urlEl),
      h(
        "dl",
        { class: "facts" },
        rows.filter(([, v]) => v).map(([k, v]) => h("div", { class: "fact" }, h("dt", null, k), h("dd", null, v))),
      ),
    ),
  );
}
