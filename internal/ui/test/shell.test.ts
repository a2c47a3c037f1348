import { beforeEach, describe, expect, it } from "vitest";
import { toolResult } from "../e2e/fixtures";
import { entryFromResult, Shell } from "../src/shell";
import { ALL_CAPS, fakeHost, flush, fx, NOW, text } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  root = document.getElementById("app")!;
});

function open(uri: string, host = fakeHost()) {
  const shell = new Shell(root, host.asHost, { now: () => NOW });
  shell.toolInput({ uri });
  shell.toolResult(toolResult(fx.byUri[uri]));
  return { shell, host };
}

const click = (css: string) => {
  const el = root.querySelector<HTMLElement>(css);
  if (!el) throw new Error(`nothing matches ${css}`);
  el.click();
};

describe("shell", () => {
  it("draws a skeleton, not a spinner, until the result arrives", () => {
    const host = fakeHost();
    const shell = new Shell(root, host.asHost);
    expect(root.querySelector(".skeleton")).not.toBeNull();
    shell.toolInput({ uri: "flow://flows" });
    expect(root.querySelectorAll(".skeleton .sk-card").length).toBeGreaterThan(0);
    expect(root.querySelector("[class*=spin]")).toBeNull();
    expect(host.host.updateModelContext).not.toHaveBeenCalled();
  });

  it("draws the tool result and tells the model", () => {
    const { host } = open("flow://flows");
    expect(root.querySelectorAll("button.flow-card")).toHaveLength(6);
    expect(text(root, ".crumb")).toEqual(["Flows"]);
    expect(root.querySelector("button.back")).toBeNull();
    expect(host.contexts()).toEqual(["The person is looking at flow://flows (flows)."]);
  });

  it("a card click calls show with the flow's URI, Back pops without a call", async () => {
    const host = fakeHost({ hold: true });
    const { shell } = open("flow://flows", host);
    root.querySelector<HTMLElement>(".scroller")!.scrollLeft = 120;

    click('button.flow-card[data-uri="flow://flows/login"]');
    expect(host.host.callServerTool).toHaveBeenCalledTimes(1);
    expect(host.host.callServerTool).toHaveBeenCalledWith({ name: "show", arguments: { uri: "flow://flows/login" } });
    expect(root.querySelector(".skeleton .sk-step")).not.toBeNull(); // loading the flow
    expect(root.querySelector("button.back")).not.toBeNull();

    host.release();
    await flush();
    expect(text(root, ".flow-name")).toEqual(["login"]);
    expect(text(root, ".crumb")).toEqual(["Flows", "login"]);
    expect(shell.stack.map((e) => e.uri)).toEqual(["flow://flows", "flow://flows/login"]);

    click("button.back");
    expect(root.querySelectorAll("button.flow-card")).toHaveLength(6);
    expect(root.querySelector<HTMLElement>(".scroller")!.scrollLeft).toBe(120);
    expect(root.querySelector("button.back")).toBeNull();
    expect(host.host.callServerTool).toHaveBeenCalledTimes(1);
    expect(host.contexts()).toEqual([
      "The person is looking at flow://flows (flows).",
      "The person is looking at flow://flows/login (flow).",
      "The person is looking at flow://flows (flows).",
    ]);
  });

  it("drills from files into a folder and opens an image in the lightbox", async () => {
    const { host, shell } = open("session://files");
    click('button.chip[data-uri="session://files/screenshots"]');
    await flush();
    expect(shell.top()?.component).toBe("folder");
    expect(text(root, ".crumb")).toEqual(["Kept files", "Screenshots"]);
    await flush();
    click('button.tile[data-uri="session://files/dashboard.png"]');
    await flush();
    expect(root.querySelector(".lightbox img")?.getAttribute("src")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(text(root, ".lightbox .tile-meta")[0]).toContain("2 of 3");
    expect(host.host.readServerResource).toHaveBeenCalledWith({ uri: "session://files/dashboard.png" });
    expect(host.contexts().at(-1)).toBe("The person is looking at session://files/dashboard.png (image) in session://files/screenshots (folder).");

    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    expect(text(root, ".lightbox .tile-name")).toEqual(["orders-table.png"]);
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    expect(root.querySelector(".lightbox")).toBeNull();
    expect(host.contexts().at(-1)).toBe("The person is looking at session://files/screenshots (folder).");

    click("button.back");
    expect(host.host.callServerTool).toHaveBeenCalledTimes(1);
    expect(host.contexts().at(-1)).toBe("The person is looking at session://files (files).");
  });

  it("without the server-tools capability cards are not clickable and the view says so", () => {
    const { serverTools: _, ...caps } = ALL_CAPS;
    const host = fakeHost({ caps });
    const { shell } = open("flow://flows", host);
    expect(root.querySelectorAll("button.flow-card")).toHaveLength(0);
    expect(root.querySelectorAll(".flow-card")).toHaveLength(6);
    expect(text(root, ".notice")).toEqual(["Open flows from the chat: this host can't call the server from the app."]);
    click(".flow-card");
    void shell.show("flow://flows/login");
    expect(host.host.callServerTool).not.toHaveBeenCalled();
    expect(shell.stack).toHaveLength(1);
  });

  it("does not update the model context on a host that does not take it", () => {
    const { updateModelContext: _, ...caps } = ALL_CAPS;
    const host = fakeHost({ caps });
    open("flow://flows", host);
    expect(host.host.updateModelContext).not.toHaveBeenCalled();
  });

  it("drops an answer that arrives after Back", async () => {
    const host = fakeHost({ hold: true });
    const { shell } = open("flow://flows", host);
    click('button.flow-card[data-uri="flow://flows/login"]');
    click("button.back");
    host.release();
    await flush();
    expect(shell.stack.map((e) => e.uri)).toEqual(["flow://flows"]);
    expect(root.querySelectorAll("button.flow-card")).toHaveLength(6);
  });

  it("shows a refused show call as an error that can be retried", async () => {
    const { host } = open("flow://flows");
    const shell = new Shell(root, host.asHost);
    shell.toolResult(toolResult(fx.byUri["flow://flows"]));
    await shell.show("flow://flows/nope");
    expect(root.querySelector(".error")?.textContent).toContain("no such resource");
    expect(host.contexts().at(-1)).toBe("The person tried to open flow://flows/nope, which failed: no such resource");
    click(".error button.more");
    expect(host.host.callServerTool).toHaveBeenCalledTimes(2);
  });

  it("has a fullscreen button only where the host offers fullscreen", async () => {
    const { host } = open("flow://flows/login");
    expect(root.querySelector("button.fullscreen")).toBeNull();
    expect(root.querySelectorAll(".step")).toHaveLength(5);

    const host2 = fakeHost({ ctx: { displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"] } });
    open("flow://flows/login", host2);
    click("button.fullscreen");
    await flush();
    expect(host2.host.requestDisplayMode).toHaveBeenCalledWith({ mode: "fullscreen" });
    expect(root.querySelectorAll(".step")).toHaveLength(8);
    expect(document.documentElement.dataset.mode).toBe("fullscreen");
    expect(host.host.requestDisplayMode).not.toHaveBeenCalled();
  });

  it("redraws when the host context changes", () => {
    const host = fakeHost();
    const { shell } = open("flow://flows/login", host);
    expect(root.querySelectorAll(".step")).toHaveLength(5);
    host.setCtx({ displayMode: "fullscreen", availableDisplayModes: ["inline", "fullscreen"] });
    shell.hostChanged({ displayMode: "fullscreen" });
    expect(root.querySelectorAll(".step")).toHaveLength(8);
    expect(root.querySelector("button.fullscreen")?.getAttribute("aria-label")).toBe("Exit fullscreen");
  });

  it("has empty states for a cancelled call and an unknown component", () => {
    const host = fakeHost();
    const shell = new Shell(root, host.asHost);
    shell.toolInput({ uri: "flow://flows" });
    shell.toolCancelled();
    expect(text(root, ".empty-title")).toEqual(["Nothing to show"]);
    shell.toolResult({ content: [], structuredContent: { component: "chart", uri: "x://y", data: {} } });
    expect(text(root, ".empty-title")).toEqual(["Nothing to draw for chart"]);
  });
});

describe("entryFromResult", () => {
  it("reads structuredContent, or the same JSON as text", () => {
    expect(entryFromResult(toolResult(fx.byUri["flow://flows"]), undefined)).toMatchObject({ component: "flows", uri: "flow://flows", state: "ready" });
    const asText = { content: [{ type: "text" as const, text: JSON.stringify(fx.byUri["session://current"]) }] };
    expect(entryFromResult(asText, "session://current")).toMatchObject({ component: "context", state: "ready" });
    expect(entryFromResult({ content: [{ type: "text", text: "plain words" }] }, "a://b")).toMatchObject({ state: "error", uri: "a://b" });
    expect(entryFromResult({ isError: true, content: [{ type: "text", text: "denied" }] }, "a://b")).toMatchObject({ state: "error", error: "denied" });
  });
});
