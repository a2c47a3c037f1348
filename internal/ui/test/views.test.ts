import { describe, expect, it, vi } from "vitest";
import { noServerTools } from "../src/types";
import { contextView } from "../src/views/context";
import { filesView, folderView } from "../src/views/files";
import { flowView } from "../src/views/flow";
import { flowsView } from "../src/views/flows";
import { env, flush, fx, render, text } from "./helpers";

describe("context view", () => {
  it("draws the session as one card", () => {
    const el = render(contextView(fx.context, env()));
    expect(text(el, "h2")).toEqual(["Session alice"]);
    expect(text(el, ".badge")).toEqual(["Live"]);
    expect(text(el, ".url")).toEqual(["https://staging.example.com/dashboard"]);
    const facts = Object.fromEntries(Array.from(el.querySelectorAll(".fact")).map((f) => [f.querySelector("dt")!.textContent, f.querySelector("dd")!.textContent]));
    expect(facts).toMatchObject({ Browser: "chrome", Window: "1280 × 800", Principal: "alice", "Last used": "3 min. ago", "Idle timeout": "15 min" });
  });

  it("marks an idle session", () => {
    const el = render(contextView({ ...fx.context, state: "idle" }, env()));
    expect(text(el, ".badge")).toEqual(["Idle"]);
  });

  it("opens the page through the host when it can open links", () => {
    const openLink = vi.fn();
    const el = render(contextView(fx.context, env({ openLink })));
    el.querySelector<HTMLButtonElement>("button.url")!.click();
    expect(openLink).toHaveBeenCalledWith("https://staging.example.com/dashboard");
  });

  it.each([[{ ...fx.context, state: "closed" }], [{}], [null]])("has an empty state: %#", (data) => {
    const el = render(contextView(data, env()));
    expect(text(el, ".empty-title")).toEqual(["No browser open"]);
    expect(el.querySelector(".session-card")).toBeNull();
  });
});

describe("files view", () => {
  it("draws a chip per folder and a tile per file", async () => {
    const show = vi.fn();
    const image = vi.fn(async () => "data:image/png;base64,AAAA");
    const el = render(filesView(fx.files, env({ show, image, openFile: vi.fn() })));
    expect(text(el, ".chip")).toEqual(["screenshots3", "downloads2"]);
    expect(text(el, ".tile-name")).toEqual(["login-page.png", "dashboard.png", "orders-table.png", "invoices-2024.csv", "report.pdf"]);
    expect(text(el, ".tile-meta")[0]).toBe("47 KB · 40 min. ago");
    await flush();
    expect(image).toHaveBeenCalledTimes(3); // the images only
    expect(el.querySelectorAll(".tile img")).toHaveLength(3);
    el.querySelector<HTMLButtonElement>('.chip[data-uri="session://files/downloads"]')!.click();
    expect(show).toHaveBeenCalledWith("session://files/downloads");
  });

  it("without server tools the chips are not clickable and say so", () => {
    const el = render(filesView(fx.files, env()));
    expect(el.querySelectorAll("button.chip")).toHaveLength(0);
    expect(el.querySelectorAll(".chip")).toHaveLength(2);
    expect(text(el, ".notice")).toEqual([noServerTools("folders")]);
  });

  it("has an empty state", () => {
    const el = render(filesView({ folders: [], files: [] }, env()));
    expect(text(el, ".empty-title")).toEqual(["No kept files yet"]);
    expect(text(render(filesView(undefined, env())), ".empty-title")).toEqual(["No kept files yet"]);
  });
});

describe("folder view", () => {
  const data = fx.byUri["session://files/screenshots"].data;

  it("draws tiles that open the lightbox", () => {
    const openFile = vi.fn();
    const el = render(folderView(data, env({ image: async () => "data:image/png;base64,AAAA", openFile })));
    expect(el.querySelectorAll("button.tile")).toHaveLength(3);
    el.querySelectorAll<HTMLButtonElement>("button.tile")[1].click();
    expect(openFile).toHaveBeenCalledWith(fx.screenshots[1], fx.screenshots);
  });

  it("without resource reads shows placeholder tiles with name and size", () => {
    const el = render(folderView(data, env()));
    expect(el.querySelectorAll("button.tile")).toHaveLength(0);
    expect(el.querySelectorAll(".tile img")).toHaveLength(0);
    expect(text(el, ".tile .ext")).toEqual(["PNG", "PNG", "PNG"]);
    expect(text(el, ".tile-meta")[2]).toBe("127 KB · 5 min. ago");
  });

  it("offers saving files the host can download", () => {
    const save = vi.fn();
    const el = render(folderView(fx.byUri["session://files/downloads"].data, env({ save })));
    el.querySelector<HTMLButtonElement>(".tile-save")!.click();
    expect(save).toHaveBeenCalledWith(fx.downloads[0]);
  });

  it("has an empty state naming the folder", () => {
    const el = render(folderView({ folder: "downloads", uri: "session://files/downloads", files: [] }, env()));
    expect(text(el, ".empty-title")).toEqual(["No files in downloads"]);
  });
});

describe("flows view", () => {
  it("draws a card per flow that drills in", () => {
    const show = vi.fn();
    const el = render(flowsView(fx.flows, env({ show })));
    expect(text(el, ".card-title")).toEqual(["login", "export-invoices", "open-orders", "checkout-smoke", "reset-password", "grid-filters"]);
    const login = el.querySelector<HTMLButtonElement>('button.flow-card[data-uri="flow://flows/login"]')!;
    expect(login.textContent).toContain("8 steps");
    expect(text(login, ".param")).toEqual(["base_url", "email"]);
    expect(login.querySelector(".param.required")!.textContent).toBe("email");
    expect(Array.from(el.querySelectorAll(".badge")).map((b) => `${b.textContent} (${b.getAttribute("title")})`)).toEqual(["Shared (Shared by bob)", "Shared (Shared by carol)"]);
    login.click();
    expect(show).toHaveBeenCalledWith("flow://flows/login");
    expect(el.querySelector(".notice")).toBeNull();
  });

  it("without server tools the cards are not clickable and say so", () => {
    const el = render(flowsView(fx.flows, env()));
    expect(el.querySelectorAll("button")).toHaveLength(0);
    expect(el.querySelectorAll(".flow-card[aria-disabled=true]")).toHaveLength(6);
    expect(text(el, ".notice")).toEqual(["Open flows from the chat: this host can't call the server from the app."]);
  });

  it("has an empty state", () => {
    expect(text(render(flowsView({ flows: [] }, env())), ".empty-title")).toEqual(["No saved flows yet"]);
    expect(text(render(flowsView("nonsense", env())), ".empty-title")).toEqual(["No saved flows yet"]);
  });
});

describe("flow view", () => {
  it("draws the name, description, parameters and steps", () => {
    const el = render(flowView(fx.login, env({ displayMode: "fullscreen" })));
    expect(text(el, ".flow-name")).toEqual(["login"]);
    expect(text(el, ".flow-desc")).toEqual([fx.login.description]);
    expect(text(el, ".param-row dt code")).toEqual(["base_url", "email"]);
    expect(text(el, ".param-row")[0]).toContain("default https://staging.example.com");
    expect(text(el, ".param-row")[1]).toContain("required");
    expect(text(el, ".step-line")).toEqual([
      "navigate url={{base_url}}/login",
      'click role:button "Accept all"',
      'wait_for label:"Email" timeout=15',
      'write label:"Email" text={{email}}',
      'write label:"Password" secret=staging-password',
      'click role:button "Sign in"',
      "wait_for url=/dashboard timeout=20",
      "assert text=Welcome",
    ]);
    expect(text(el, ".step-id")).toContain("cookies");
    expect(text(el, ".step-note")).toContain("Cookie banner, only on first visit");
    expect(el.querySelector("button.more")).toBeNull();
  });

  it("inline shows the first five steps and +N more", () => {
    const el = render(flowView(fx.login, env({ displayMode: "inline" })));
    expect(el.querySelectorAll(".step")).toHaveLength(5);
    const more = el.querySelector<HTMLButtonElement>("button.more")!;
    expect(more.textContent).toBe("+3 more");
    more.click();
    expect(el.querySelectorAll(".step")).toHaveLength(8);
    expect(el.querySelector("button.more")).toBeNull();
  });

  it("says when there are no parameters or steps", () => {
    const el = render(flowView({ name: "blank", parameters: [], steps: [] }, env()));
    expect(text(el, ".empty-title")).toEqual(["This flow has no steps"]);
    expect(el.textContent).toContain("None: the flow runs as it is.");
  });

  it("has an empty state", () => {
    expect(text(render(flowView({}, env())), ".empty-title")).toEqual(["This flow is empty"]);
  });
});
