// Loads a lazily built chunk (hooks/chunks/*.js, see scripts/build.mjs) through V8's code cache.
//
// A hook is a fresh process each time, so without a cache V8 compiles the YAML parser, the schemas
// and our own code on every Stop: most of the active path's cost (docs/PERFORMANCE.md). The cache is
// vm.Script's documented cachedData, saved at exit when there was none or V8 rejected it, so the
// functions that run compiled are in it too. Any failure only means compiling as usual;
// CONTINUATION_LOOP_CODE_CACHE=0 turns the cache off.
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** Caches not written for this long are removed when another one is saved: old builds age out. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** A private folder for the cache: ours alone (0700, our uid), or none. */
function cacheDir(): string | undefined {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), uid === undefined ? "continuation-loop-v8" : `continuation-loop-v8-${uid}`);
  try {
    let stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) {
      mkdirSync(dir, { mode: 0o700 });
      stat = lstatSync(dir);
    }
    // Bytecode from a folder someone else can write to would be code they chose: never used.
    if (!stat.isDirectory() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache atomically. Caches of other builds stay: two installed copies of the plugin
 * (a plugin and an npm copy, two versions) each keep theirs. Only caches untouched for MAX_AGE_MS go.
 */
function saveCache(script: Script, dir: string, file: string): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > MAX_AGE_MS) rmSync(path, { force: true });
    }
  } catch {
    // A cache is an optimisation: a full disk or a race with another hook changes nothing.
  }
}

/** Chunks already run in this process, shared by every bundle that loads them (one module instance each). */
const loaded: Map<string, Record<string, unknown>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("continuation-loop.chunks")
] ??= new Map()) as Map<string, Record<string, unknown>>;

/**
 * Runs a CommonJS chunk once and returns its exports; its bytecode comes from the cache when one
 * matches (file name = content hash, V8 version, architecture).
 */
export function loadChunk(file: string): Record<string, unknown> {
  const done = loaded.get(file);
  if (done) return done;
  // Wrapped as Node wraps a CommonJS module.
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const dir = process.env.CONTINUATION_LOOP_CODE_CACHE === "0" ? undefined : cacheDir();
  const cacheFile = dir && join(dir, `${basename(file)}.${process.versions.v8}.${process.arch}.cache`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // not cached yet
  }
  const script = new Script(source, { filename: file, ...(cachedData && { cachedData }) });
  if (dir && cacheFile && (!cachedData || script.cachedDataRejected)) {
    // At exit, so the bytecode of every function this run needed is in the cache.
    process.once("exit", () => saveCache(script, dir, cacheFile));
  }
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: object,
    filename: string,
    dirname: string,
  ) => void;
  // Chunks require only Node built-ins (every package is bundled in), so the bundle's own `require` serves.
  run(module.exports, require, module, file, dirname(file));
  loaded.set(file, module.exports);
  return module.exports;
}
