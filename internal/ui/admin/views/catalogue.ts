// Secrets (one card each, never a value) and settings (value and source).

import { h, icon, ICONS } from "../../src/dom";
import { badge, empty, notice, skeleton } from "../../src/views/common";

export interface SecretCard {
  name: string;
  owner: string;
  description?: string;
  sites: string[];
  keys: string[];
  source: string;
}

export interface Setting {
  key: string;
  value: string;
  source: string;
}

export function secretsView(d: { secrets: SecretCard[]; broken?: string } | undefined): HTMLElement {
  const view = h("section", { class: "view view-secrets" }, h("h1", { class: "page-h" }, "Secrets"));
  if (!d) {
    view.append(skeleton("flows"));
    return view;
  }
  if (d.broken) view.append(notice(d.broken));
  if (!d.secrets.length) {
    view.append(empty("No secrets", "Secrets come from FLOW_SECRETS, FLOW_SECRETS_DIR or FLOW_SECRET_ variables.", ICONS.lock));
    return view;
  }
  view.append(
    h(
      "ul",
      { class: "secret-cards" },
      d.secrets.map((s) =>
        h(
          "li",
          { class: "card secret-card" },
          h("div", { class: "card-head" }, h("span", { class: "card-icon" }, icon(ICONS.lock)), h("span", { class: "card-title" }, s.name), badge(s.owner, "muted")),
          s.description ? h("p", { class: "card-desc" }, s.description) : null,
          h(
            "dl",
            { class: "facts small" },
            h("dt", null, "Keys"),
            h("dd", { class: "mono" }, s.keys.join(", ")),
            h("dt", null, "Sites"),
            h("dd", { class: "mono" }, s.sites.join(", ")),
            h("dt", null, "Source"),
            h("dd", null, s.source),
          ),
        ),
      ),
    ),
  );
  return view;
}

export function settingsView(d: { settings: Setting[] } | undefined): HTMLElement {
  const view = h("section", { class: "view view-settings" }, h("h1", { class: "page-h" }, "Settings"));
  if (!d) {
    view.append(skeleton());
    return view;
  }
  view.append(
    h(
      "table",
      { class: "grid-table" },
      h("thead", null, h("tr", null, h("th", null, "Setting"), h("th", null, "Value"), h("th", null, "From"))),
      h(
        "tbody",
        null,
        d.settings.map((s) =>
          h("tr", null, h("td", { class: "mono" }, s.key), h("td", { class: "mono" }, s.value || "—"), h("td", null, badge(s.source, s.source === "default" ? "muted" : "info"))),
        ),
      ),
    ),
  );
  return view;
}
