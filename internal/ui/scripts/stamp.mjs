// After the build: record what dist/index.html and testdata/host.html were
// built from, in dist/source.sha256, so that ui_test.go (Go, no npm) can tell
// when a source changed without a rebuild. Also refuses a shell over budget.
//
// The file lists the sha256 of every input file (the ROOTS below, walked
// recursively, skipping names that start with a dot, sorted by path), a "sources" line hashing that list, and the
// sha256 of each built file. ui_test.go walks the same roots; keep the two
// lists equal.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(fileURLToPath(import.meta.url), "..", "..");
export const ROOTS = ["index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "vite.host.config.ts", "vite.admin.config.ts", "src", "e2e", "admin"];
// The admin page's build (../admin/dist) is every file there, names hashed.
const adminBuilt = [];
walk(join(here, "..", "admin", "dist"), adminBuilt);
export const BUILT = ["dist/index.html", "testdata/host.html", ...adminBuilt.filter((f) => !f.endsWith("/source.sha256")).sort()];
const ADMIN_GZIP_LIMIT = 48 * 1024;
const GZIP_LIMIT = 110 * 1024;

const sha = (buf) => createHash("sha256").update(buf).digest("hex");

function walk(p, out) {
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const name of readdirSync(p)) if (!name.startsWith(".")) walk(join(p, name), out);
  }
  else if (st.isFile()) out.push(relative(here, p).split(sep).join("/"));
}

const files = [];
for (const r of ROOTS) walk(join(here, r), files);
files.sort();

const fileLines = files.map((f) => `file ${sha(readFileSync(join(here, f)))} ${f}`);
const lines = [
  "# Written by `npm run build` (scripts/stamp.mjs); ui_test.go checks it. Do not edit.",
  `sources ${sha(fileLines.join("\n") + "\n")}`,
  ...fileLines,
  ...BUILT.map((f) => `built ${sha(readFileSync(join(here, f)))} ${f}`),
];
writeFileSync(join(here, "dist", "source.sha256"), lines.join("\n") + "\n");

const gz = gzipSync(readFileSync(join(here, "dist/index.html")), { level: 9 }).length;
console.log(`dist/index.html: ${(gz / 1024).toFixed(1)} KiB gzipped (limit ${GZIP_LIMIT / 1024} KiB); ${files.length} source files stamped`);
const adminGz = adminBuilt.reduce((n, f) => n + gzipSync(readFileSync(join(here, f)), { level: 9 }).length, 0);
console.log(`admin page (../admin/dist): ${(adminGz / 1024).toFixed(1)} KiB gzipped (limit ${ADMIN_GZIP_LIMIT / 1024} KiB)`);
if (adminGz > ADMIN_GZIP_LIMIT) {
  console.error("the admin page is over its gzip budget");
  process.exit(1);
}
if (gz > GZIP_LIMIT) {
  console.error("dist/index.html is over the gzip budget");
  process.exit(1);
}
