// Host theme, style variables and fonts onto the document, through the SDK's helpers.

import { applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";

export function applyHostLook(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  const insets = ctx.safeAreaInsets;
  if (insets) {
    const s = document.documentElement.style;
    s.setProperty("--inset-top", `${insets.top}px`);
    s.setProperty("--inset-right", `${insets.right}px`);
    s.setProperty("--inset-bottom", `${insets.bottom}px`);
    s.setProperty("--inset-left", `${insets.left}px`);
  }
}
