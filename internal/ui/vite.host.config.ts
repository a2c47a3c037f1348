import { resolve } from "node:path";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

// The e2e test's host page (e2e/host.html with the SDK's AppBridge) as one
// file, testdata/host.html, which e2e_test.go serves.
export default defineConfig({
  root: resolve(__dirname, "e2e"),
  plugins: [viteSingleFile({ removeViteModuleLoader: true })],
  build: {
    outDir: resolve(__dirname, "testdata"),
    emptyOutDir: false,
    target: "es2022",
    reportCompressedSize: false,
    rollupOptions: {
      input: resolve(__dirname, "e2e/host.html"),
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
    },
  },
});
