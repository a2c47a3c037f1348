// A minimal MCP Apps host for the end-to-end test, built on the SDK's own
// AppBridge: it loads the app shell in a sandboxed iframe, answers
// ui/initialize with host context and capabilities, sends the show tool's
// input and result, and answers the app's tools/call and resources/read from
// fixtures. Everything the app asks for is recorded in window.hostLog.
//
// Query: view=<uri> theme=light|dark tools=0 resources=0 vars=0 modes=inline,fullscreen
// width=<px> delay=<ms of each tools/call> app=/app

import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiDisplayMode, McpUiHostContext, McpUiStyles } from "@modelcontextprotocol/ext-apps";
import { fixtures, toolResult } from "./fixtures";

const q = new URLSearchParams(location.search);
const theme = q.get("theme") === "dark" ? "dark" : "light";
const uri = q.get("view") ?? "flow://flows";
const modes = (q.get("modes") ?? "inline,fullscreen").split(",").filter(Boolean) as McpUiDisplayMode[];
const fx = fixtures(new Date());

interface HostLog {
  initialized: boolean;
  calls: { name: string; arguments?: Record<string, unknown> }[];
  reads: string[];
  contexts: string[];
  sizes: { width?: number; height?: number }[];
  displayModes: string[];
  downloads: unknown[];
}
const log: HostLog = { initialized: false, calls: [], reads: [], contexts: [], sizes: [], displayModes: [], downloads: [] };
(window as unknown as { hostLog: HostLog }).hostLog = log;

document.body.classList.toggle("dark", theme === "dark");
if (q.get("width")) (document.querySelector(".turn") as HTMLElement).style.maxWidth = `${q.get("width")}px`;

// Roughly what a chat host sends: a neutral palette per theme.
const palettes: Record<string, Partial<McpUiStyles>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f8f8f6",
    "--color-background-tertiary": "#efeeea",
    "--color-text-primary": "#1f1e1d",
    "--color-text-secondary": "#5e5d59",
    "--color-text-tertiary": "#8b8a85",
    "--color-border-primary": "#e3e2dc",
    "--color-text-info": "#2c64d0",
    "--color-background-info": "#e8effc",
    "--font-sans": 'system-ui, -apple-system, "Segoe UI", sans-serif',
    "--border-radius-lg": "12px",
  },
  dark: {
    "--color-background-primary": "#262624",
    "--color-background-secondary": "#2f2f2c",
    "--color-background-tertiary": "#3a3a36",
    "--color-text-primary": "#efeee9",
    "--color-text-secondary": "#b9b8b1",
    "--color-text-tertiary": "#8e8d87",
    "--color-border-primary": "#403f3b",
    "--color-text-info": "#8db2ff",
    "--color-background-info": "#23304a",
    "--font-sans": 'system-ui, -apple-system, "Segoe UI", sans-serif',
    "--border-radius-lg": "12px",
  },
};

const hostContext: McpUiHostContext = {
  theme,
  displayMode: "inline",
  availableDisplayModes: modes,
  locale: "en-US",
  platform: "web",
  containerDimensions: { maxHeight: 4000, width: 1000 },
  ...(q.get("vars") === "0" ? {} : { styles: { variables: palettes[theme] as McpUiStyles } }),
};

const bridge = new AppBridge(
  null,
  { name: "selenium-flow test host", version: "1.0.0" },
  {
    openLinks: {},
    downloadFile: {},
    logging: {},
    updateModelContext: { text: {}, structuredContent: {} },
    ...(q.get("tools") === "0" ? {} : { serverTools: {} }),
    ...(q.get("resources") === "0" ? {} : { serverResources: {} }),
  },
  { hostContext },
);

const iframe = document.getElementById("app") as HTMLIFrameElement;

bridge.oninitialized = () => {
  log.initialized = true;
  void bridge.sendToolInput({ arguments: { uri } });
  const r = fx.byUri[uri];
  void bridge.sendToolResult(r ? toolResult(r) : { isError: true, content: [{ type: "text", text: `no resource ${uri}` }] });
};

bridge.onsizechange = ({ width, height }) => {
  log.sizes.push({ width, height });
  if (height !== undefined) iframe.style.height = `${height}px`;
};

bridge.oncalltool = async (params) => {
  log.calls.push({ name: params.name, arguments: params.arguments });
  const target = String(params.arguments?.uri ?? "");
  const r = params.name === "show" ? fx.byUri[target] : undefined;
  await new Promise((ok) => setTimeout(ok, Number(q.get("delay") ?? 150)));
  if (!r) return { isError: true, content: [{ type: "text", text: `unknown resource ${target}` }] };
  return toolResult(r);
};

bridge.onreadresource = async ({ uri }) => {
  log.reads.push(uri);
  const name = uri.replace(/^session:\/\/files\//, "");
  return { contents: [{ uri, mimeType: "image/png", blob: picture(name) }] };
};

bridge.onupdatemodelcontext = async (params) => {
  const text = (params.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
  log.contexts.push(text);
  return {};
};

bridge.onrequestdisplaymode = async ({ mode }) => {
  log.displayModes.push(mode);
  const next = modes.includes(mode) ? mode : "inline";
  iframe.style.height = next === "fullscreen" ? "100vh" : iframe.style.height;
  bridge.setHostContext({ ...hostContext, displayMode: next });
  return { mode: next };
};

bridge.ondownloadfile = async (params) => {
  log.downloads.push(params);
  return {};
};

bridge.onopenlink = async () => ({});
bridge.onloggingmessage = (m) => console.log("[app]", m.data);

/** A fake screenshot: a browser-ish page drawn on a canvas, as base64 PNG. */
function picture(name: string): string {
  const c = document.createElement("canvas");
  c.width = 640;
  c.height = 400;
  const g = c.getContext("2d")!;
  let seed = [...name].reduce((a, ch) => a + ch.charCodeAt(0), 0);
  const hue = seed % 360;
  g.fillStyle = `hsl(${hue} 40% 97%)`;
  g.fillRect(0, 0, 640, 400);
  g.fillStyle = `hsl(${hue} 55% 45%)`;
  g.fillRect(0, 0, 640, 56);
  g.fillStyle = "#fff";
  g.font = "bold 22px sans-serif";
  g.fillText(name.replace(/\.\w+$/, ""), 24, 36);
  for (let i = 0; i < 4; i++) {
    seed = (seed * 9301 + 49297) % 233280;
    g.fillStyle = `hsl(${hue} 30% ${80 - i * 6}%)`;
    g.fillRect(24, 84 + i * 74, 200 + (seed % 380), 52);
  }
  return c.toDataURL("image/png").split(",")[1];
}

await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
iframe.src = q.get("app") ?? "/app";
