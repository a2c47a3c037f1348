import { describe, expect, it } from "vitest";
import { applyHostLook } from "../src/theme";

describe("host look", () => {
  it("applies the theme and the host's style variables through the SDK", () => {
    applyHostLook({
      theme: "dark",
      styles: { variables: { "--color-background-primary": "#262624", "--font-sans": "Inter, sans-serif" } as never },
      safeAreaInsets: { top: 4, right: 0, bottom: 8, left: 0 },
    });
    const root = document.documentElement;
    expect(root.dataset.theme).toBe("dark");
    expect(root.style.colorScheme).toBe("dark");
    expect(root.style.getPropertyValue("--color-background-primary")).toBe("#262624");
    expect(root.style.getPropertyValue("--font-sans")).toBe("Inter, sans-serif");
    expect(root.style.getPropertyValue("--inset-bottom")).toBe("8px");
    applyHostLook({ theme: "light" });
    expect(root.dataset.theme).toBe("light");
  });
});
