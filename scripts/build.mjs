// Bundles src/entries/*.ts into self-contained files in hooks/ (or the folder given as argv[2]).
//
// A hook is a fresh process per event, so the layout keeps what an idle hook loads small
// (docs/PERFORMANCE.md says what each choice buys):
// - Entries are CommonJS: an ES-module entry goes through Node's ESM loader, which costs more than
//   the idle Stop hook may spend in all.
// - Every `import()` of a module under src/ becomes a chunk of its own (hooks/chunks/<name>-<HASH>.js),
//   loaded when it runs through V8's code cache (src/entries/loadChunk.ts). A chunk holds everything
//   it needs: a chunk and the entry that loads it exchange plain data, never instances of a class.
// - Heavy Node builtins (node:child_process for git and verify) are required on first call.
// - gray-matter's js-yaml is never bundled: yaml parses the frontmatter.
// - yaml comes from its ES-module build (the package's "default" export, the same code as the
//   CommonJS build its "node" export names, as the companion module gets it): esbuild drops what the
//   hooks never call, and the Stop chunk loads no CommonJS wrapper per yaml module.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const outdir = resolve(process.argv[2] ?? join(root, "hooks"));
const entries = ["stop", "prompt", "cli", "session"]
  .map((name) => join(src, "entries", `${name}.ts`))
  .filter((file) => existsSync(file));
const loader = join(src, "entries", "loadChunk.ts");
const nodeRequire = createRequire(import.meta.url);

// Builtins that take milliseconds to load: required on the first call of one of their functions.
const LAZY_BUILTINS = [
  "child_process",
  "net",
  "tty",
  "stream",
  "zlib",
  "readline",
  "worker_threads",
  "http",
  "https",
  "assert",
  "os",
];

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  minify: true,
  treeShaking: true,
  legalComments: "none",
  alias: {
    "js-yaml": join(root, "scripts/js-yaml-unused.cjs"),
    yaml: join(dirname(nodeRequire.resolve("yaml/package.json")), "browser/index.js"),
  },
  // `import.meta.url` in CommonJS: the file's own URL, as in an ES module.
  define: { "import.meta.url": "import_meta_url" },
  inject: [join(root, "scripts/import-meta-url.mjs")],
  logLevel: "warning",
};

/** Chunk file name → contents; source path or package → promise of its chunk's file name. */
const chunks = new Map();
const building = new Map();

/** Builds a chunk once per key; its name carries a hash of its contents. */
function chunk(key, stem, options) {
  if (!building.has(key)) {
    building.set(
      key,
      build({ ...common, ...options, write: false, outdir: "/" }).then((result) => {
        const contents = result.outputFiles[0].contents;
        const name = `${stem}-${createHash("sha256").update(contents).digest("hex").slice(0, 8).toUpperCase()}.js`;
        chunks.set(name, contents);
        return name;
      }),
    );
  }
  return building.get(key);
}

/** Code that loads a chunk from an entry (hooks/) or from another chunk (hooks/chunks/). */
const loadChunk = (kind, name) =>
  `require(${JSON.stringify(loader)}).loadChunk(__dirname + ${JSON.stringify(kind === "entry" ? `/chunks/${name}` : `/${name}`)})`;

/** `import()` of a module under src/ → that module as a chunk. */
function lazyImports(kind, stack) {
  return {
    name: "lazy-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import") return undefined;
        const resolved = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: "import-statement" });
        if (resolved.errors.length || !resolved.path.startsWith(`${src}/`)) return undefined;
        if (stack.includes(resolved.path))
          throw new Error(
            `import() calls form a cycle: ${[...stack, resolved.path].map((p) => p.slice(root.length + 1)).join(" → ")}`,
          );
        const name = await chunk(resolved.path, basename(resolved.path, ".ts"), {
          entryPoints: [resolved.path],
          plugins: plugins("chunk", [...stack, resolved.path]),
        });
        return { path: name, namespace: "lazy-import", pluginData: { kind } };
      });
      b.onLoad({ filter: /.*/, namespace: "lazy-import" }, (args) => ({
        contents: `module.exports = ${loadChunk(args.pluginData.kind, args.path)};`,
        resolveDir: root,
        loader: "js",
      }));
    },
  };
}

/** A builtin's function exports. */
const functionExports = (id) =>
  Object.keys(nodeRequire(id)).filter((key) => typeof nodeRequire(id)[key] === "function");

/** `import { spawnSync } from "node:child_process"` in src/ → required on the first call. */
function lazyBuiltins() {
  return {
    name: "lazy-builtins",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.join("|")})$`) }, (args) =>
        args.kind === "import-statement" && args.importer.startsWith(`${src}/`)
          ? { path: `node:${args.path.replace(/^node:/, "")}`, namespace: "lazy-builtin" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
        contents: functionExports(args.path)
          .filter((key) => /^[a-z]/.test(key)) // functions, not classes
          .map((key) => `export function ${key}(...a) { return require(${JSON.stringify(args.path)}).${key}(...a); }`)
          .join("\n"),
        loader: "js",
      }));
    },
  };
}

const plugins = (kind, stack) => [lazyImports(kind, stack), lazyBuiltins()];

const result = await build({ ...common, entryPoints: entries, write: false, outdir, plugins: plugins("entry", []) });

// Old chunks must not linger: their names carry content hashes.
rmSync(join(outdir, "chunks"), { recursive: true, force: true });
for (const name of ["stop.js", "prompt.js", "cli.js", "session.js"]) rmSync(join(outdir, name), { force: true });
mkdirSync(join(outdir, "chunks"), { recursive: true });
for (const file of result.outputFiles) {
  const shebang = basename(file.path) === "cli.js" ? "#!/usr/bin/env node\n" : "";
  writeFileSync(file.path, shebang + file.text, { mode: shebang ? 0o755 : 0o644 });
}
for (const [name, contents] of [...chunks].sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(join(outdir, "chunks", name), contents);

// The bundles are CommonJS wherever they are copied to, whatever package.json sits above them.
writeFileSync(join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
const sizes = [
  ...readdirSync(outdir).filter((n) => n.endsWith(".js")),
  ...readdirSync(join(outdir, "chunks")).map((n) => `chunks/${n}`),
];
console.log(
  `built in ${outdir}: ${sizes.map((n) => `${n} ${(readFileSync(join(outdir, n)).length / 1024).toFixed(1)} KB`).join(", ")}`,
);

// The companion hooks module (docs/REFERENCE.md "The companion module"): one ES module with no Node, which Claude
// Code loads itself (hooks.json `modules`). Not minified: Claude Code reads its source to see what it
// calls. gray-matter's one `require("fs")` (its file reader, never called here) gets an empty module;
// node:path is pathe; Buffer is scripts/module-buffer.mjs.
const moduleResult = await build({
  entryPoints: [join(src, "module", "index.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  treeShaking: true,
  legalComments: "none",
  alias: common.alias,
  inject: [join(root, "scripts/module-buffer.mjs")],
  write: false,
  outfile: join(outdir, "module.mjs"),
  logLevel: "warning",
  plugins: [
    {
      name: "no-node",
      setup(b) {
        // Core's path logic (scope entries) runs on pathe, node:path's own rules in plain ES code.
        b.onResolve({ filter: /^(node:)?path$/ }, () =>
          b.resolve("pathe", { kind: "import-statement", resolveDir: root }),
        );
        b.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: "fs", namespace: "no-node" }));
        b.onLoad({ filter: /.*/, namespace: "no-node" }, () => ({ contents: "module.exports = {};", loader: "js" }));
      },
    },
  ],
});
writeFileSync(join(outdir, "module.mjs"), moduleResult.outputFiles[0].text);
console.log(
  `built ${join(outdir, "module.mjs")} ${(moduleResult.outputFiles[0].contents.length / 1024).toFixed(1)} KB`,
);
