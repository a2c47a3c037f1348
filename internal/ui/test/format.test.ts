import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration, formatWhen, guessComponent, summarizeLocator, summarizeStep } from "../src/format";
import { NOW } from "./helpers";

describe("summarizeStep", () => {
  it("writes the tool and its arguments on one line", () => {
    expect(summarizeStep({ tool: "navigate", args: { url: "{{base_url}}/login" } })).toBe("navigate url={{base_url}}/login");
    expect(summarizeStep({ tool: "write", args: { locator: { label: "Email" }, text: "{{email}}" } })).toBe('write label:"Email" text={{email}}');
    expect(summarizeStep({ tool: "click", args: { locator: { role: "button", name: "Sign in" } } })).toBe('click role:button "Sign in"');
    expect(summarizeStep({ tool: "assert", args: { text: "Order 42 placed" } })).toBe('assert text="Order 42 placed"');
    expect(summarizeStep({ tool: "navigate", args: { back: true } })).toBe("navigate back");
    expect(summarizeStep({ tool: "outline" })).toBe("outline");
  });

  it("summarises nested locators", () => {
    expect(summarizeLocator({ text: "Remove", within: { css: "[data-testid='cart-row-2']" } })).toBe(`text:"Remove" in css:"[data-testid='cart-row-2']"`);
    expect(summarizeLocator({ role: "link", name: "Details", nth: 3, within: { role: "list", name: "Results" } })).toBe(
      'role:link "Details" #3 in role:list "Results"',
    );
    expect(summarizeStep({ tool: "outline", args: { within: { role: "form", name: "Sign in" } } })).toBe('outline within=role:form "Sign in"');
  });

  it("cuts very long lines", () => {
    const line = summarizeStep({ tool: "assert", args: { text: "x".repeat(400) } });
    expect(line.length).toBe(160);
    expect(line.endsWith("…")).toBe(true);
  });
});

describe("formatting", () => {
  it("sizes", () => {
    expect(formatBytes(123)).toBe("123 B");
    expect(formatBytes(48_213)).toBe("47 KB");
    expect(formatBytes(3_912)).toBe("3.8 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatBytes(undefined)).toBe("");
  });

  it("Go durations", () => {
    expect(formatDuration("15m0s")).toBe("15 min");
    expect(formatDuration("1h30m0s")).toBe("1 h 30 min");
    expect(formatDuration("45s")).toBe("45 s");
    expect(formatDuration("weird")).toBe("weird");
  });

  it("relative times", () => {
    expect(formatWhen(new Date(NOW.getTime() - 3 * 60_000).toISOString(), NOW, "en-US")).toBe("3 min. ago");
    expect(formatWhen(NOW.toISOString(), NOW, "en-US")).toBe("just now");
    expect(formatWhen("2020-01-02T00:00:00Z", NOW, "en-US")).toBe("Jan 2, 2020");
  });

  it("guesses the view of a URI", () => {
    expect(guessComponent("session://current")).toBe("context");
    expect(guessComponent("session://files")).toBe("files");
    expect(guessComponent("session://files/screenshots")).toBe("folder");
    expect(guessComponent("flow://flows")).toBe("flows");
    expect(guessComponent("flow://flows/login")).toBe("flow");
    expect(guessComponent("kb://x")).toBeUndefined();
  });
});
