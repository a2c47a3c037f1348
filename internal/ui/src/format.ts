// Small formatting helpers shared by the views.

import type { FlowStep } from "./types";

export function formatBytes(n: number | undefined): string {
  if (typeof n !== "number" || !isFinite(n) || n < 0) return "";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** "3 min ago", "in 2 h", falling back to the date for anything over a week. */
export function formatWhen(iso: string | undefined, now: Date, locale?: string): string {
  if (!iso) return "";
  const t = Date.parse(iso);
  if (isNaN(t)) return iso;
  const diff = (t - now.getTime()) / 1000;
  const abs = Math.abs(diff);
  let rtf: Intl.RelativeTimeFormat;
  try {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
  } catch {
    rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });
  }
  if (abs < 45) return "just now";
  if (abs < 45 * 60) return rtf.format(Math.round(diff / 60), "minute");
  if (abs < 22 * 3600) return rtf.format(Math.round(diff / 3600), "hour");
  if (abs < 7 * 86400) return rtf.format(Math.round(diff / 86400), "day");
  try {
    return new Date(t).toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
  } catch {
    return new Date(t).toISOString().slice(0, 10);
  }
}

/** Go's time.Duration text ("15m0s", "1h30m0s", "45s") as "15 min", "1 h 30 min", "45 s". */
export function formatDuration(d: string | undefined): string {
  if (!d) return "";
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?$/.exec(d);
  if (!m || (!m[1] && !m[2] && !m[3])) return d;
  const parts: string[] = [];
  if (m[1] && m[1] !== "0") parts.push(`${m[1]} h`);
  if (m[2] && m[2] !== "0") parts.push(`${m[2]} min`);
  if (m[3] && Number(m[3]) !== 0) parts.push(`${Number(m[3])} s`);
  return parts.length ? parts.join(" ") : "0 s";
}

export function isImage(mime: string | undefined, name?: string): boolean {
  if (mime) return mime.startsWith("image/");
  return /\.(png|jpe?g|gif|webp|svg)$/i.test(name ?? "");
}

export function extension(name: string): string {
  const i = name.lastIndexOf(".");
  return i > 0 && i < name.length - 1 ? name.slice(i + 1).toUpperCase().slice(0, 4) : "FILE";
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A scalar argument value: bare unless it is empty or has spaces. */
function scalar(v: unknown): string {
  if (typeof v === "string") return v === "" || /\s|"/.test(v) ? quote(v) : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  return JSON.stringify(v);
}

const STRATEGIES = ["role", "label", "text", "css", "xpath"] as const;

function isLocator(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v) && STRATEGIES.some((k) => k in (v as object));
}

/** A locator on one line: label:"Email", role:button "Sign in", text:"Remove" #2 in css:"…". */
export function summarizeLocator(loc: Record<string, unknown>): string {
  let out = "";
  for (const k of STRATEGIES) {
    if (k in loc) {
      out = `${k}:${k === "role" ? scalar(loc[k]) : quote(String(loc[k]))}`;
      break;
    }
  }
  if (typeof loc.name === "string") out += ` ${quote(loc.name)}`;
  if (typeof loc.nth === "number") out += ` #${loc.nth}`;
  if (isLocator(loc.within)) out += ` in ${summarizeLocator(loc.within)}`;
  return out;
}

/** One line per step: the tool, then its arguments (locators summarised, booleans as flags). */
export function summarizeStep(step: FlowStep): string {
  const parts: string[] = [step.tool || "?"];
  const args = step.args && typeof step.args === "object" ? step.args : {};
  for (const [k, v] of Object.entries(args)) {
    if (isLocator(v)) parts.push(k === "locator" ? summarizeLocator(v) : `${k}=${summarizeLocator(v)}`);
    else if (v === true) parts.push(k);
    else parts.push(`${k}=${scalar(v)}`);
  }
  const line = parts.join(" ");
  return line.length > 160 ? line.slice(0, 159) + "…" : line;
}

/** The label the breadcrumb shows for a resource. */
export function labelFor(component: string | undefined, uri: string, data?: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (component) {
    case "context":
      return "Browser session";
    case "files":
      return "Kept files";
    case "folder":
      return typeof d.folder === "string" ? cap(d.folder) : lastSegment(uri);
    case "flows":
      return "Flows";
    case "flow":
      return typeof d.name === "string" ? d.name : lastSegment(uri);
  }
  return lastSegment(uri) || uri;
}

function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function lastSegment(uri: string): string {
  const s = uri.replace(/\/+$/, "");
  const i = s.lastIndexOf("/");
  return i >= 0 ? decodeURIComponent(s.slice(i + 1)) : s;
}

/** Guess which view a URI draws before its result arrives (for the skeleton). */
export function guessComponent(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  if (uri === "session://current") return "context";
  if (uri === "session://files") return "files";
  if (/^session:\/\/files\/(screenshots|downloads|prints|uploads)$/.test(uri)) return "folder";
  if (uri === "flow://flows") return "flows";
  if (uri.startsWith("flow://flows/")) return "flow";
  return undefined;
}
