// Bundles src/entries/*.ts into self-contained files in hooks/ (or the folder given as argv[2]).
//
// Start-up is most of a hook's cost (bench/run.mjs measures it), so the layout is built for it:
// - Entries are CommonJS: on Node 20 an ES-module entry alone costs ~4 ms more than `node -e 0`
//   (the ESM loader), more than the idle Stop hook may spend in all.
// - Code is loaded when it runs, not before:
//   - every `import()` of a module under src/ becomes a chunk of its own;
//   - yaml, zod and gray-matter become chunks too, behind stand-in modules, because only the
//     uncommon paths call them (frontmatter the simple reader leaves to yaml; values the quick
//     checks refuse; a block with an inner `---` line);
//   - heavy Node builtins (node:child_process: git, verify) are required on first call.
//   Chunks (hooks/chunks/<name>-<HASH>.js) are loaded synchronously through V8's code cache
//   (src/entries/loadChunk.ts); each is written as the function Node wraps a CommonJS module in.
//   A chunk holds everything it needs: modules it shares with the entry are copies (do not rely
//   on `instanceof` or module state across an `import()`).
// - node:fs and node:path are required once per bundle, not once per module that imports them.
// - Minified and tree-shaken; yaml is taken in its ES-module build (the same code as its CommonJS
//   dist minus Node's emitWarning and two debug env vars); gray-matter's js-yaml is never bundled.
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

const LAZY_PACKAGES = ["yaml", "zod/mini", "gray-matter"];
// ~1 ms or more each to load (node:child_process ~3 ms: it pulls in node:net and node:stream).
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
  "os", // ~0.2 ms; only the config dir and the tmp dir of the code cache need it
];

// Required once per bundle, however many modules import them.
const SHARED_BUILTINS = ["fs", "path"];

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node18",
  minify: true,
  treeShaking: true,
  legalComments: "none",
  alias: {
    "js-yaml": join(root, "scripts/js-yaml-unused.cjs"),
    yaml: join(root, "node_modules/yaml/browser/index.js"),
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
        // Wrapped here as Node wraps a CommonJS module, so the loader compiles the file's text as it
        // is: wrapping it there would copy the whole chunk at every load.
        const contents = Buffer.concat([
          Buffer.from("(function (exports, require, module, __filename, __dirname) {"),
          result.outputFiles[0].contents,
          Buffer.from("\n})"),
        ]);
        const name = `${stem}-${createHash("sha256").update(contents).digest("hex").slice(0, 8).toUpperCase()}.js`;
        chunks.set(name, contents);
        return name;
      }),
    );
  }
  return building.get(key);
}

/** Code that loads a chunk from an entry (hooks/) or from another chunk (hooks/chunks/). */
// `__dirname + "/…"`, not path.join: its first use would cost every active hook ~0.07 ms.
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

/** A package's function exports (namespaces such as zod's `locales` are left out: they are big). */
const functionExports = (id) =>
  Object.keys(nodeRequire(id)).filter((key) => typeof nodeRequire(id)[key] === "function");

/**
 * `import … from "yaml"` (or zod) in src/ → a stand-in whose exports forward to the package's chunk,
 * loaded on first use. Each export is a Proxy, so calls, `new`, `instanceof` and properties (yaml's
 * visit.BREAK) reach the real one. A function the stand-in lacks fails the build, loudly.
 */
function lazyPackages(kind) {
  return {
    name: "lazy-packages",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join("|").replace(/\//g, "\\/")})$`) }, (args) =>
        args.kind === "import-statement" && args.importer.startsWith(`${src}/`)
          ? { path: args.path, namespace: "lazy-package" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "lazy-package" }, async (args) => {
        // A package that is itself a function (gray-matter) is its default export.
        const names = [
          ...(typeof nodeRequire(args.path) === "function" ? ["default"] : []),
          ...functionExports(args.path),
        ];
        const reexport = `export { ${names.join(", ")} } from ${JSON.stringify(args.path)};`;
        const name = await chunk(args.path, args.path.replace(/[^a-z0-9]+/gi, "-"), {
          stdin: { contents: reexport, resolveDir: root, loader: "js" },
        });
        const lines = [
          "let m;",
          `const load = () => (m ??= ${loadChunk(kind, name)});`,
          "const lazy = (key) => new Proxy(function () {}, { apply: (_, self, args) => Reflect.apply(load()[key], self, args), construct: (_, args) => Reflect.construct(load()[key], args), get: (_, p) => load()[key][p], has: (_, p) => p in load()[key] });",
          // `export { e0 as null }`: zod has functions named null, enum, catch…
          ...names.map(
            (key, i) => `const e${i} = /* @__PURE__ */ lazy(${JSON.stringify(key)});\nexport { e${i} as ${key} };`,
          ),
        ];
        return { contents: lines.join("\n"), resolveDir: root, loader: "js" };
      });
    },
  };
}

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

/**
 * `import { openSync } from "node:fs"` in src/ → one shared module per bundle that requires the builtin
 * once: esbuild would otherwise emit a `require("node:fs")` per importing module, each a trip through
 * Node's module loader (about 5 µs; 30 of them in the Stop chunk).
 */
function sharedBuiltins() {
  return {
    name: "shared-builtins",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(node:)?(${SHARED_BUILTINS.join("|")})$`) }, (args) =>
        args.kind === "import-statement" && args.importer.startsWith(`${src}/`)
          ? { path: `node:${args.path.replace(/^node:/, "")}`, namespace: "shared-builtin" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "shared-builtin" }, (args) => ({
        contents: [
          `const m = require(${JSON.stringify(args.path)});`,
          ...Object.keys(nodeRequire(args.path))
            .filter((key) => /^[A-Za-z_$][\w$]*$/.test(key))
            .map((key) => `export const ${key} = /* @__PURE__ */ (() => m.${key})();`),
        ].join("\n"),
        loader: "js",
      }));
    },
  };
}

const plugins = (kind, stack) => [lazyImports(kind, stack), lazyPackages(kind), lazyBuiltins(), sharedBuiltins()];

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

// The companion hooks module (README "The companion module"): one ES module with no Node, which Claude
// Code loads itself (hooks.json `modules`). Not minified: Claude Code reads its source to see what it
// calls. gray-matter's one `require("fs")` (its file reader, never called here) gets an empty module.
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
  write: false,
  outfile: join(outdir, "module.mjs"),
  logLevel: "warning",
  plugins: [
    {
      name: "no-node",
      setup(b) {
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
