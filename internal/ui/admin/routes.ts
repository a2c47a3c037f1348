// Deep links: every view of the admin page has a hash route, so a link
// such as #/workspaces/default@alice/flows/login opens that flow.

export type Tab = "files" | "flows" | "sites" | "history";

export type Route =
  | { view: "workspaces" }
  | { view: "workspace"; ws: string; tab: Tab }
  | { view: "flow"; ws: string; flow: string }
  | { view: "secrets" }
  | { view: "settings" };

const TABS: Tab[] = ["files", "flows", "sites", "history"];

/** Reads a location hash ("#/workspaces/…"); anything unknown is the workspace list. */
export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  switch (parts[0]) {
    case "secrets":
      return { view: "secrets" };
    case "settings":
      return { view: "settings" };
    case "workspaces":
      if (!parts[1]) return { view: "workspaces" };
      if (parts[2] === "flows" && parts[3]) return { view: "flow", ws: parts[1], flow: parts[3] };
      return { view: "workspace", ws: parts[1], tab: TABS.includes(parts[2] as Tab) ? (parts[2] as Tab) : "files" };
  }
  return { view: "workspaces" };
}

/** The hash of a route; parseRoute(href(r)) is r. */
export function href(r: Route): string {
  const e = encodeURIComponent;
  switch (r.view) {
    case "workspaces":
      return "#/workspaces";
    case "workspace":
      return `#/workspaces/${e(r.ws)}/${r.tab}`;
    case "flow":
      return `#/workspaces/${e(r.ws)}/flows/${e(r.flow)}`;
    default:
      return `#/${r.view}`;
  }
}
