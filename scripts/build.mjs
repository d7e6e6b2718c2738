// Bundles src/entries/*.ts into self-contained CommonJS files in hooks/ (or the folder given as argv[2]),
// esbuild's own output (docs/PERFORMANCE.md says what each choice buys):
// - A hook is a fresh process per event. Each hook's entry holds its idle path (stdin, one look into
//   `.claude/`); what only an active loop needs is a second bundle, hooks/active/<hook>.js, which the
//   entry `require`s (src/entries/loadActive.ts) only when a loop concerns its event. hooks/active/command.js is the
//   worker thread a Stop runs a user's command in (src/io/runVerify.ts).
// - CommonJS: an ES-module entry goes through Node's ESM loader, which costs more than an idle hook may spend.
// - gray-matter's js-yaml is never bundled: yaml parses the frontmatter (gray-matter is given it as
//   its engine), and gray-matter loads js-yaml when it loads.
// - yaml comes from its ES-module build (the package's "default" export, the same code as the CommonJS
//   build its "node" export names, as the companion module gets it): no CommonJS wrapper per module.
// - The entries and the helper are written for Node 12: a Node too old for the hooks (Debian 12's 18,
//   Ubuntu 22.04's 12) must parse them far enough to run their first statement, the version check
//   (src/entries/oldNode.ts). The active bundles load only after it, and stay at Node 20.
//
//   node scripts/build.mjs [DIR] [--metafile FILE]
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const args = process.argv.slice(2);
const metafileAt = args.includes("--metafile") ? resolve(args[args.indexOf("--metafile") + 1]) : undefined;
const outdir = resolve(args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--metafile") ?? join(root, "hooks"));
/** One bundle per entry: the hooks' idle paths and the helper, which check the Node first; the active paths. */
const ENTRIES = ["stop", "prompt", "session", "cli"];
const ACTIVE_ENTRIES = ["active/stop", "active/prompt", "active/session", "active/command"];
/** The oldest Node that must parse an entry (see above); package.json `engines` for the rest. */
const ENTRY_TARGET = "node12";
/** What an entry requires at run time, beside itself, instead of bundling it. */
const ACTIVE = "./active/*";

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  alias: {
    "js-yaml": join(root, "scripts/js-yaml-unused.cjs"),
    yaml: join(dirname(createRequire(import.meta.url).resolve("yaml/package.json")), "browser/index.js"),
  },
  logLevel: "warning",
};

const buildEntries = (names, target) =>
  build({
    ...common,
    target,
    entryPoints: names.map((name) => join(src, "entries", `${name}.ts`)),
    outbase: join(src, "entries"),
    external: [ACTIVE],
    write: false,
    outdir,
    metafile: true,
  });
const [idle, active] = await Promise.all([
  buildEntries(ENTRIES, ENTRY_TARGET),
  buildEntries(ACTIVE_ENTRIES, common.target),
]);
const result = {
  outputFiles: [...idle.outputFiles, ...active.outputFiles],
  metafile: {
    inputs: { ...idle.metafile.inputs, ...active.metafile.inputs },
    outputs: { ...idle.metafile.outputs, ...active.metafile.outputs },
  },
};

// Files of earlier layouts must not linger.
for (const old of ["chunks", "active", "active.js"]) rmSync(join(outdir, old), { recursive: true, force: true });
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const shebang = basename(file.path) === "cli.js" ? "#!/usr/bin/env node\n" : "";
  writeFileSync(file.path, shebang + file.text, { mode: shebang ? 0o755 : 0o644 });
}
// The bundles are CommonJS wherever they are copied to, whatever package.json sits above them.
writeFileSync(join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
const sizes = readdirSync(outdir, { recursive: true }).filter((n) => n.endsWith(".js"));
console.log(
  `built in ${outdir}: ${sizes.map((n) => `${n} ${(readFileSync(join(outdir, n)).length / 1024).toFixed(1)} KB`).join(", ")}`,
);

// The companion hooks module (docs/REFERENCE.md "The companion module"): one ES module with no Node, which Claude
// Code loads itself (hooks.json `modules`). Not minified: Claude Code reads its source to see what it
// calls. It draws the view the hooks write into the sidecar (src/core/sidecar.ts), so it bundles no package and no shim.
const moduleResult = await build({
  entryPoints: [join(src, "module", "index.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  treeShaking: true,
  legalComments: "none",
  write: false,
  outfile: join(outdir, "module.mjs"),
  metafile: true,
  logLevel: "warning",
});
writeFileSync(join(outdir, "module.mjs"), moduleResult.outputFiles[0].text);
// The module's own record, beside the hooks': every file its build loaded.
if (metafileAt) writeFileSync(metafileAt, JSON.stringify({ ...result.metafile, module: moduleResult.metafile }));
console.log(
  `built ${join(outdir, "module.mjs")} ${(moduleResult.outputFiles[0].contents.length / 1024).toFixed(1)} KB`,
);
