// Sample resources as the server's show tool returns them: shared by the
// vitest suite and the e2e host page.

import type { ShowResult } from "../src/types";

const ago = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

export function fixtures(now: Date) {
  const context = {
    principal: "alice",
    session: "alice",
    state: "live",
    browser: "chrome",
    url: "https://staging.example.com/dashboard",
    title: "Dashboard · Staging",
    window: { width: 1280, height: 800 },
    openedAt: ago(now, 42),
    lastUsedAt: ago(now, 3),
    idleTimeout: "15m0s",
  };

  const file = (name: string, folder: string, size: number, mimeType: string, minutes: number) => ({
    name,
    folder,
    size,
    mimeType,
    uri: `session://files/${name}`,
    link: `/files/${name}`,
    modified: ago(now, minutes),
  });
  const screenshots = [
    file("login-page.png", "screenshots", 48_213, "image/png", 40),
    file("dashboard.png", "screenshots", 91_877, "image/png", 12),
    file("orders-table.png", "screenshots", 130_442, "image/png", 5),
  ];
  const downloads = [file("invoices-2024.csv", "downloads", 3_912, "text/csv", 8), file("report.pdf", "downloads", 212_004, "application/pdf", 2)];

  const files = {
    folders: [
      { name: "screenshots", uri: "session://files/screenshots", count: screenshots.length },
      { name: "downloads", uri: "session://files/downloads", count: downloads.length },
    ],
    files: [...screenshots, ...downloads],
  };

  const login = {
    name: "login",
    description: "Sign in to the staging app and land on the dashboard.",
    shared: false,
    parameters: [
      { name: "base_url", type: "string", default: "https://staging.example.com", description: "Site root, no trailing slash" },
      { name: "email", type: "string", required: true, description: "Account email" },
    ],
    steps: [
      { id: "open", tool: "navigate", args: { url: "{{base_url}}/login" } },
      { id: "cookies", tool: "click", args: { locator: { role: "button", name: "Accept all" } }, onError: "continue", note: "Cookie banner, only on first visit" },
      { id: "wait-form", tool: "wait_for", args: { locator: { label: "Email" }, timeout: 15 } },
      { id: "email", tool: "write", args: { locator: { label: "Email" }, text: "{{email}}" } },
      { id: "password", tool: "write", args: { locator: { label: "Password" }, secret: "staging-password" }, note: "Secret bound to staging.example.com" },
      { id: "submit", tool: "click", args: { locator: { role: "button", name: "Sign in" } } },
      { id: "landed", tool: "wait_for", args: { url: "/dashboard", timeout: 20 } },
      { id: "check", tool: "assert", args: { text: "Welcome" } },
    ],
  };

  const summary = (name: string, description: string, params: { name: string; type: string; required?: boolean }[], steps: number, shared = false, owner = "alice") => ({
    name,
    uri: `flow://flows/${name}`,
    description,
    parameters: params,
    steps,
    shared,
    owner,
  });
  const flows = {
    flows: [
      summary("login", login.description, [{ name: "base_url", type: "string" }, { name: "email", type: "string", required: true }], login.steps.length),
      summary("export-invoices", "Open billing, filter the year and download every invoice as one CSV.", [{ name: "year", type: "integer", required: true }], 6),
      summary("open-orders", "Open the orders page and wait for the table.", [{ name: "base_url", type: "string", required: true }], 2),
      summary("checkout-smoke", "Add the first product to the cart, check out with the test card and assert the receipt.", [{ name: "base_url", type: "string" }, { name: "card", type: "string" }, { name: "sku", type: "string" }], 11, true, "bob"),
      summary("reset-password", "Request a password reset and follow the link from the test inbox.", [{ name: "email", type: "string", required: true }], 7),
      summary("grid-filters", "Apply each filter of the orders grid and screenshot the result.", [], 9, true, "carol"),
    ],
  };

  const byUri: Record<string, ShowResult> = {
    "session://current": { component: "context", uri: "session://current", data: context },
    "session://files": { component: "files", uri: "session://files", data: files },
    "session://files/screenshots": { component: "folder", uri: "session://files/screenshots", data: { folder: "screenshots", uri: "session://files/screenshots", files: screenshots } },
    "session://files/downloads": { component: "folder", uri: "session://files/downloads", data: { folder: "downloads", uri: "session://files/downloads", files: downloads } },
    "flow://flows": { component: "flows", uri: "flow://flows", data: flows },
    "flow://flows/login": { component: "flow", uri: "flow://flows/login", data: login },
  };
  for (const f of flows.flows) {
    if (!byUri[f.uri]) {
      byUri[f.uri] = {
        component: "flow",
        uri: f.uri,
        data: {
          name: f.name,
          description: f.description,
          shared: f.shared,
          parameters: f.parameters,
          steps: Array.from({ length: f.steps }, (_, i) =>
            i === 0 ? { id: "open", tool: "navigate", args: { url: "{{base_url}}/" } } : { id: `step-${i + 1}`, tool: "wait_for", args: { text: `Step ${i + 1}`, timeout: 10 } },
          ),
        },
      };
    }
  }
  return { context, files, screenshots, downloads, flows, login, byUri };
}

/** A show tool result as the server sends it: JSON text plus structuredContent. */
export function toolResult(r: ShowResult) {
  return { content: [{ type: "text" as const, text: JSON.stringify(r.data) }], structuredContent: { ...r } };
}
