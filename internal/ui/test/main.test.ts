// The wiring in main.ts: the SDK's App is replaced by a fake that records
// what main registers and lets the test play the host's notifications.

import { describe, expect, it, vi } from "vitest";
import { toolResult } from "../e2e/fixtures";
import { ALL_CAPS, flush, fx } from "./helpers";

const fake = vi.hoisted(() => ({
  listeners: {} as Record<string, (p: unknown) => void>,
  ctx: { theme: "dark", displayMode: "inline", availableDisplayModes: ["inline"] } as Record<string, unknown>,
  options: undefined as unknown,
  caps: undefined as unknown,
  connected: false,
  updates: [] as unknown[],
}));

vi.mock("@modelcontextprotocol/ext-apps", async (real) => {
  const mod = await real<typeof import("@modelcontextprotocol/ext-apps")>();
  class App {
    onteardown?: unknown;
    constructor(_info: unknown, caps: unknown, options: unknown) {
      fake.caps = caps;
      fake.options = options;
    }
    addEventListener(name: string, fn: (p: unknown) => void) {
      fake.listeners[name] = fn;
    }
    async connect() {
      fake.connected = true;
    }
    getHostCapabilities() {
      return fake.connected ? ALL_CAPS : undefined;
    }
    getHostContext() {
      return fake.connected ? fake.ctx : undefined;
    }
    async updateModelContext(p: unknown) {
      fake.updates.push(p);
      return {};
    }
    async callServerTool() {
      return toolResult(fx.byUri["flow://flows/login"]);
    }
  }
  return { ...mod, App, PostMessageTransport: class {} };
});

describe("main", () => {
  it("connects with auto-resize, applies the host look and hands events to the shell", async () => {
    document.body.innerHTML = '<div id="app"></div>';
    await import("../src/main");
    await flush();
    expect(fake.options).toMatchObject({ autoResize: true });
    expect(fake.caps).toMatchObject({ availableDisplayModes: ["inline", "fullscreen"] });
    expect(Object.keys(fake.listeners).sort()).toEqual(["hostcontextchanged", "toolcancelled", "toolinput", "toolresult"]);
    expect(document.documentElement.dataset.theme).toBe("dark");

    fake.listeners.toolinput({ arguments: { uri: "flow://flows" } });
    expect(document.querySelector(".skeleton")).not.toBeNull();
    fake.listeners.toolresult(toolResult(fx.byUri["flow://flows"]));
    expect(document.querySelectorAll("button.flow-card")).toHaveLength(6);
    expect(fake.updates).toHaveLength(1);

    document.querySelector<HTMLElement>("button.flow-card")!.click();
    await flush();
    expect(document.querySelector(".flow-name")?.textContent).toBe("login");

    fake.ctx = { ...fake.ctx, theme: "light" };
    fake.listeners.hostcontextchanged({ theme: "light" });
    expect(document.documentElement.dataset.theme).toBe("light");
  });
});
