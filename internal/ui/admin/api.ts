// The admin API as the page calls it: the bearer token on every call, the
// CSRF header on every change, refusals read as their sentence.

export const TOKEN_KEY = "selenium-flow-admin-token";
export const CSRF_HEADER = "X-Flow-Admin";

/** A refusal from the API: its status and sentence, and a flow document's problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

export interface Me {
  principal: string;
  operator: boolean;
  workspace: string;
}

export interface Config {
  oidc?: { issuer: string; clientId: string };
}

/** Where the token lives: sessionStorage, so it ends with the tab and never reaches a URL or cookie. */
export const tokenStore = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export class Api {
  constructor(
    private token: string,
    private base = "/admin/api/",
    private fetcher: typeof fetch = (...a) => fetch(...a),
  ) {}

  private headers(change: boolean, json: boolean): Headers {
    const h = new Headers();
    if (this.token) h.set("Authorization", `Bearer ${this.token}`);
    if (change) h.set(CSRF_HEADER, "1");
    if (json) h.set("Content-Type", "application/json");
    return h;
  }

  async raw(method: string, path: string, body?: string, signal?: AbortSignal): Promise<Response> {
    const change = method !== "GET";
    const res = await this.fetcher(this.base + path, {
      method,
      headers: this.headers(change, body !== undefined),
      body,
      signal,
      credentials: "omit",
      cache: "no-store",
    });
    if (!res.ok) throw await refusal(res);
    return res;
  }

  async get<T>(path: string): Promise<T> {
    return (await this.raw("GET", path)).json() as Promise<T>;
  }

  async send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
    const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    return (await this.raw(method, path, text)).json() as Promise<T>;
  }

  /** A kept file as a blob: URL (img and iframe cannot send the token). */
  async blobURL(link: string): Promise<string> {
    const res = await this.fetcher(link, { headers: this.headers(false, false), credentials: "omit" });
    if (!res.ok) throw await refusal(res);
    return URL.createObjectURL(await res.blob());
  }

  /**
   * Reads a Server-Sent Events stream with fetch (EventSource cannot send
   * the token) and calls onEvent with each event's name and data until
   * signal aborts; returns when the stream ends.
   */
  async stream(path: string, onEvent: (name: string, data: string) => void, signal: AbortSignal): Promise<void> {
    const res = await this.raw("GET", path, undefined, signal);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const ev = parseEvent(block);
        if (ev) onEvent(ev.name, ev.data);
      }
    }
  }
}

/** One SSE block: its event name ("message" by default) and data lines; null for a comment. */
export function parseEvent(block: string): { name: string; data: string } | null {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { name, data: data.join("\n") } : null;
}

async function refusal(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const j = JSON.parse(text);
    if (j && typeof j.error === "string") return new ApiError(res.status, j.error, Array.isArray(j.problems) ? j.problems : []);
  } catch {
    /* a plain-text refusal (the server's HTTP guard, the token check) */
  }
  return new ApiError(res.status, text.trim() || `The server answered ${res.status}.`);
}
