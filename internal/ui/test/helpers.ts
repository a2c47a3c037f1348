import { vi } from "vitest";
import { fixtures, toolResult } from "../e2e/fixtures";
import type { Host } from "../src/shell";
import type { ViewEnv } from "../src/types";

export const NOW = new Date("2025-06-01T12:00:00Z");
export const fx = fixtures(NOW);

export function env(over: Partial<ViewEnv> = {}): ViewEnv {
  return { displayMode: "inline", locale: "en-US", now: () => NOW, ...over };
}

export function render(el: HTMLElement): HTMLElement {
  document.body.replaceChildren(el);
  return el;
}

export const text = (el: ParentNode, css: string) => Array.from(el.querySelectorAll(css)).map((e) => e.textContent?.trim() ?? "");

export const ALL_CAPS = {
  serverTools: {},
  serverResources: {},
  updateModelContext: { text: {} },
  downloadFile: {},
  openLinks: {},
};

/** A host the way the shell sees it (the SDK's App), answering from fixtures. */
export function fakeHost(opts: { caps?: Record<string, unknown>; ctx?: Record<string, unknown>; hold?: boolean } = {}) {
  let caps = opts.caps ?? ALL_CAPS;
  let ctx: Record<string, unknown> = opts.ctx ?? { theme: "light", displayMode: "inline", availableDisplayModes: ["inline"] };
  const pending: (() => void)[] = [];
  const host = {
    getHostCapabilities: vi.fn(() => caps),
    getHostContext: vi.fn(() => ctx),
    callServerTool: vi.fn(async (p: { name: string; arguments?: Record<string, unknown> }) => {
      if (opts.hold) await new Promise<void>((ok) => pending.push(ok));
      const r = fx.byUri[String(p.arguments?.uri)];
      return r ? toolResult(r) : { isError: true, content: [{ type: "text", text: "no such resource" }] };
    }),
    readServerResource: vi.fn(async ({ uri }: { uri: string }) => ({ contents: [{ uri, mimeType: "image/png", blob: "iVBORw0KGgo=" }] })),
    updateModelContext: vi.fn(async () => ({})),
    requestDisplayMode: vi.fn(async ({ mode }: { mode: string }) => ({ mode })),
    downloadFile: vi.fn(async () => ({})),
    openLink: vi.fn(async () => ({})),
  };
  return {
    host,
    asHost: host as unknown as Host,
    setCaps: (c: Record<string, unknown>) => (caps = c),
    setCtx: (c: Record<string, unknown>) => (ctx = c),
    /** Let held tools/call answers through. */
    release: () => pending.splice(0).forEach((ok) => ok()),
    /** The texts of every updateModelContext call so far. */
    contexts: () =>
      host.updateModelContext.mock.calls.map((c) => {
        const p = (c as unknown[])[0] as { content: { text: string }[] };
        return p.content[0].text;
      }),
  };
}

export const flush = () => new Promise((ok) => setTimeout(ok, 0));
