import { resolve } from "node:path";
import { defineConfig } from "vite";

// The operator's admin page: admin/index.html and its scripts and styles
// as separate files (the page's CSP allows no inline script), written to
// ../admin/dist, which package admin embeds and serves at /admin.
export default defineConfig({
  root: resolve(__dirname, "admin"),
  base: "/admin/",
  build: {
    outDir: resolve(__dirname, "../admin/dist"),
    emptyOutDir: true,
    target: "es2022",
    assetsDir: "assets",
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    rollupOptions: { input: resolve(__dirname, "admin/index.html") },
  },
});
