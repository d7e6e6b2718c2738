// Bundles src/entries/*.ts into self-contained ESM files in hooks/ (or the folder given as argv[2]).
import { build } from "esbuild";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = resolve(process.argv[2] ?? join(root, "hooks"));
const entries = ["stop", "prompt", "cli"].map((name) => join(root, "src/entries", `${name}.ts`)).filter((file) => existsSync(file));

// Old chunks must not linger: their names carry content hashes.
rmSync(join(outdir, "chunks"), { recursive: true, force: true });
for (const name of ["stop.js", "prompt.js", "cli.js"]) rmSync(join(outdir, name), { force: true });
mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: entries,
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node18",
  minify: true,
  treeShaking: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // gray-matter is CommonJS and requires node builtins; ESM bundles need a require().
  banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' },
  // gray-matter's default YAML engine (js-yaml) is never used: we hand it our own parser.
  alias: { "js-yaml": join(root, "scripts/js-yaml-unused.cjs") },
  logLevel: "warning",
});

// The bundles are ESM wherever they are copied to, whatever package.json sits above them.
writeFileSync(join(outdir, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
const cli = join(outdir, "cli.js");
if (existsSync(cli)) writeFileSync(cli, `#!/usr/bin/env node\n${readFileSync(cli, "utf8")}`, { mode: 0o755 });
console.log(`built ${readdirSync(outdir).join(", ")} in ${outdir}`);
