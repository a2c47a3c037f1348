// The admin page's pieces: routes, the SSE reader, the API client's
// headers and refusals, and its views built on the app's shared components.

import { afterEach, describe, expect, it, vi } from "vitest";
import { Api, ApiError, CSRF_HEADER, parseEvent } from "../admin/api";
import { challenge, finishSignIn, providerName } from "../admin/oidc";
import { href, parseRoute, type Route } from "../admin/routes";
import { secretsView, settingsView } from "../admin/views/catalogue";
import { flowPage } from "../admin/views/flow";
import { filesTab, sitesTab } from "../admin/views/workspace";
import { workspacesView, type Workspace } from "../admin/views/workspaces";
import { env, NOW, render, text } from "./helpers";

describe("routes", () => {
  const cases: [string, Route][] = [
    ["", { view: "workspaces" }],
    ["#/workspaces", { view: "workspaces" }],
    ["#/workspaces/default@alice", { view: "workspace", ws: "default@alice", tab: "files" }],
    ["#/workspaces/default@alice/sites", { view: "workspace", ws: "default@alice", tab: "sites" }],
    ["#/workspaces/default@alice/flows/login", { view: "flow", ws: "default@alice", flow: "login" }],
    ["#/workspaces/default%40alice/bogus", { view: "workspace", ws: "default@alice", tab: "files" }],
    ["#/secrets", { view: "secrets" }],
    ["#/settings", { view: "settings" }],
    ["#/nowhere", { view: "workspaces" }],
    ["#/workspaces/%E0%A4%A", { view: "workspace", ws: "%E0%A4%A", tab: "files" }],
  ];
  it.each(cases)("parses %s", (hash, want) => expect(parseRoute(hash)).toEqual(want));
  it.each(cases.map(([, r]) => r).filter((r) => !("ws" in r) || !r.ws.includes("%")))("round-trips %o", (r) =>
    expect(parseRoute(href(r))).toEqual(r),
  );
});

describe("parseEvent", () => {
  it.each([
    ["event: workspaces\ndata: {\"a\":1}", { name: "workspaces", data: '{"a":1}' }],
    ["data: one\ndata: two", { name: "message", data: "one\ntwo" }],
    [": still here", null],
    ["event: x", null],
  ])("%j", (block, want) => expect(parseEvent(block)).toEqual(want));
});

describe("Api", () => {
  function fake(status: number, body: string) {
    return vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(body, { status, headers: { "Content-Type": "application/json" } }));
  }
  it("sends the token on reads and the CSRF header and JSON on changes", async () => {
    const f = fake(200, "{}");
    const api = new Api("tok", "/admin/api/", f as unknown as typeof fetch);
    await api.get("me");
    await api.send("PUT", "workspaces/x/flows/y", { name: "y" });
    const [, read] = f.mock.calls[0];
    const [, put] = f.mock.calls[1];
    expect(new Headers(read!.headers).get("Authorization")).toBe("Bearer tok");
    expect(new Headers(read!.headers).get(CSRF_HEADER)).toBeNull();
    expect(new Headers(put!.headers).get(CSRF_HEADER)).toBe("1");
    expect(new Headers(put!.headers).get("Content-Type")).toBe("application/json");
    expect(put!.credentials).toBe("omit");
  });
  it("reads a refusal's sentence and problems", async () => {
    const api = new Api("tok", "/admin/api/", fake(422, JSON.stringify({ error: "Not valid.", problems: ["at /steps: x"] })) as unknown as typeof fetch);
    const err = (await api.get("x").catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.message).toBe("Not valid.");
    expect(err.problems).toEqual(["at /steps: x"]);
  });
  it("keeps a plain-text refusal", async () => {
    const api = new Api("", "/admin/api/", fake(401, "This server needs a bearer token.") as unknown as typeof fetch);
    const err = (await api.get("x").catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe("This server needs a bearer token.");
  });
});

describe("oidc", () => {
  it("makes the RFC 7636 S256 challenge", async () => {
    // sha256 then base64url without padding, as Python computes it: base64.urlsafe_b64encode(hashlib.sha256(v).digest()).
    expect(await challenge("dBjftJeZ4CVP-mJ92K9mSHE8sXdvWn4YVM6rQ3KGVnoY1vv0O9mwJxoY")).toBe("Zi-ZyWF-7Lde7tPcuqoY2_ElEsk-rTVbglYl3n6EHTA");
  });

  it.each([
    ["https://login.example.com/realms/ops", "login.example.com"],
    ["http://127.0.0.1:9000", "127.0.0.1:9000"],
    ["not a url", "not a url"],
  ])("names the provider %s as %s", (issuer, want) => expect(providerName(issuer)).toBe(want));

  afterEach(() => vi.unstubAllGlobals());
  const ISSUER = "https://idp.example";
  const PENDING = "selenium-flow-admin-oidc";
  // The callback as the provider sends the browser back, with the page's
  // pending sign-in in sessionStorage, and a provider answering fetches.
  function callback(query: string, token: Record<string, unknown> = { access_token: "a.b.c", id_token: "i.d.t" }) {
    sessionStorage.setItem(PENDING, JSON.stringify({ verifier: "v", state: "s-page", issuer: ISSUER, clientId: "admin", hash: "#/settings" }));
    history.replaceState(null, "", "/admin?" + query);
    const calls: [string, RequestInit | undefined][] = [];
    vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      if (url.endsWith("/.well-known/openid-configuration")) return Response.json({ authorization_endpoint: ISSUER + "/authorize", token_endpoint: ISSUER + "/token" });
      return Response.json(token);
    });
    return calls;
  }
  const cleaned = () => {
    expect(location.search).toBe("");
    expect(sessionStorage.getItem(PENDING)).toBeNull();
  };

  it("exchanges the code with the verifier for the access token and cleans the address", async () => {
    const calls = callback(`code=c1&state=s-page&iss=${encodeURIComponent(ISSUER)}`);
    expect(await finishSignIn()).toBe("a.b.c");
    cleaned();
    expect(location.hash).toBe("#/settings");
    const [url, init] = calls[1];
    expect(url).toBe(ISSUER + "/token");
    expect(init?.credentials).toBe("omit");
    const form = new URLSearchParams(init?.body as URLSearchParams);
    expect(Object.fromEntries(form)).toEqual({ grant_type: "authorization_code", code: "c1", redirect_uri: location.origin + "/admin", client_id: "admin", code_verifier: "v" });
  });

  it.each([
    ["a state it did not send", "code=c1&state=s-forged", "does not match the sign-in this page started"],
    ["another provider", "code=c1&state=s-page&iss=https%3A%2F%2Fevil.example", "another provider"],
    ["the provider's refusal", "error=access_denied&error_description=User+said+no&state=s-page", "User said no"],
  ])("refuses %s with a sentence, exchanging nothing", async (_, query, sentence) => {
    const calls = callback(query);
    await expect(finishSignIn()).rejects.toThrow(sentence);
    cleaned();
    expect(calls).toEqual([]);
  });

  it("refuses an answer with no access token (an ID token is not for the server)", async () => {
    callback("code=c1&state=s-page", { id_token: "i.d.t" });
    await expect(finishSignIn()).rejects.toThrow("no access token");
  });

  it("leaves a page it did not send to the provider alone", async () => {
    sessionStorage.clear();
    history.replaceState(null, "", "/admin?code=c1&state=s");
    expect(await finishSignIn()).toBeNull();
    expect(location.search).toBe("?code=c1&state=s");
    history.replaceState(null, "", "/admin");
  });
});

describe("views", () => {
  const ws = (over: Partial<Workspace>): Workspace => ({ id: "default@bob", owner: "bob", name: "default", state: "closed", files: 1, flows: 2, sites: 0, ...over });

  it("draws a skeleton, never a spinner, before the list arrives", () => {
    const el = render(workspacesView(undefined, NOW, () => {}));
    expect(el.querySelector(".skeleton")).not.toBeNull();
    expect(el.querySelector("[class*=spin]")).toBeNull();
  });

  it("lists workspaces with their state and offers End browser only for open ones", () => {
    const end = vi.fn();
    const el = render(workspacesView([ws({ state: "live", url: "https://shop.example/cart", owner: "alice", id: "default@alice" }), ws({})], NOW, end));
    expect(text(el, ".ws-name")).toEqual(["alice / default", "bob / default"]);
    expect(text(el, ".badge")).toEqual(["live", "closed"]);
    const buttons = el.querySelectorAll<HTMLButtonElement>(".ws-end");
    expect(buttons.length).toBe(1);
    buttons[0].click();
    expect(end).toHaveBeenCalledWith(expect.objectContaining({ id: "default@alice" }));
  });

  it("shows kept files with the app's tiles and offers delete per file and clear per folder", () => {
    const act = { end: vi.fn(), deleteFile: vi.fn(), clearFolder: vi.fn(), forgetSite: vi.fn(), clearSites: vi.fn() };
    const file = { name: "a.png", folder: "screenshots", mimeType: "image/png", uri: "session://files/a.png", link: "/admin/api/workspaces/default@bob/files/a.png", size: 10 };
    const el = render(filesTab({ folders: [{ name: "screenshots", count: 1 }, { name: "downloads", count: 0 }], files: [file] }, env({ image: async () => "blob:x", openFile: vi.fn() }), act));
    expect(el.querySelectorAll(".tiles .tile").length).toBe(1);
    const del = el.querySelector<HTMLButtonElement>('[aria-label="Delete a.png"]')!;
    del.click();
    expect(act.deleteFile).not.toHaveBeenCalled(); // asks first
    expect(del.textContent).toBe("Confirm delete");
    del.dispatchEvent(new FocusEvent("blur"));
    expect(del.textContent).toBe("Delete");
    del.click();
    del.click();
    expect(act.deleteFile).toHaveBeenCalledWith(file);
    const clear = el.querySelector<HTMLButtonElement>('[aria-label="Clear screenshots"]')!;
    clear.click();
    clear.click();
    expect(act.clearFolder).toHaveBeenCalledWith("screenshots");
    expect(el.querySelector('[aria-label="Clear downloads"]')).toBeNull();
  });

  it("says when the server keeps no site data", () => {
    const act = { end: vi.fn(), deleteFile: vi.fn(), clearFolder: vi.fn(), forgetSite: vi.fn(), clearSites: vi.fn() };
    const el = render(sitesTab({ sites: [], kept: false, note: "No site data here." }, NOW, act));
    expect(text(el, ".notice")).toEqual(["No site data here."]);
  });

  it("shows a flow with the app's flow view and its problems in place", () => {
    const doc = { name: "login", steps: [{ tool: "navigate", args: { url: "x" } }] };
    const save = vi.fn();
    const el = render(flowPage("default@bob", "login", doc, env(), { save, share: vi.fn(), remove: vi.fn() }, { text: "{bad", error: "Not valid.", problems: ["at /steps/0: nope"] }));
    expect(text(el, ".flow-name")[0]).toContain("login");
    expect(text(el, ".step-line .tool")).toEqual(["navigate"]);
    const editor = el.querySelector<HTMLTextAreaElement>("#flow-doc")!;
    expect(editor.value).toBe("{bad");
    expect(editor.getAttribute("aria-invalid")).toBe("true");
    expect(editor.getAttribute("aria-describedby")).toBe("flow-problems");
    expect(text(el, "#flow-problems li")).toEqual(["at /steps/0: nope"]);
    el.querySelector<HTMLButtonElement>("#flow-save")!.click();
    expect(save).toHaveBeenCalledWith("{bad");
  });

  it("shows secret cards without any value and settings with their source", () => {
    const el = render(secretsView({ secrets: [{ name: "login", owner: "bob", sites: ["example.com"], keys: ["password", "username"], source: "FLOW_SECRETS file, line 1" }] }));
    expect(text(el, ".card-title")).toEqual(["login"]);
    expect(el.textContent).toContain("password, username");
    expect(el.textContent).toContain("FLOW_SECRETS file, line 1");
    const st = render(settingsView({ settings: [{ key: "FLOW_IDLE_TIMEOUT", value: "15m0s", source: "default" }] }));
    expect(text(st, "td")).toEqual(["FLOW_IDLE_TIMEOUT", "15m0s", "default"]);
  });
});
