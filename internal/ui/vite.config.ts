import { defineConfig } from "vitest/config";
import { viteSingleFile } from "vite-plugin-singlefile";

// The app shell: index.html with every script and style inlined into one file,
// dist/index.html, which internal/ui embeds.
export default defineConfig({
  plugins: [viteSingleFile({ removeViteModuleLoader: true })],
  build: {
    outDir: "dist",
    emptyOutDir: false,
    target: "es2022",
    reportCompressedSize: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod ships comments rollup cannot read as annotations; harmless.
        if (warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
    },
  },
  test: {
    environment: "happy-dom",
    include: ["test/**/*.test.ts"],
  },
});
