// Loads a lazily built chunk (hooks/chunks/*.js, see scripts/build.mjs) through V8's code cache.
//
// A hook is a fresh process each time, so without a cache V8 compiles the YAML parser, the schemas
// and our own code on every Stop: most of the active path's cost. The cache holds V8's compiled
// bytecode of a chunk as it was after a run (so lazily compiled functions are in it too) and is
// written once per chunk, Node version and machine. This is vm.Script's cachedData, on every Node
// version: with Node's own module compile cache instead (module.enableCompileCache, Node >= 22.1),
// an active Stop on Node 24 was 4.5-5.8 ms slower (README "Performance"). Any failure (no tmp dir,
// a foreign or rejected cache) only means compiling as usual; CONTINUATION_LOOP_CODE_CACHE=0 turns
// the cache off.
//
// A cache holds what the run that wrote it compiled; a Stop that takes another path (a transcript
// to read, a reminder instead of the full prompt) compiles the rest at every run. So an accepted
// cache is saved again at 1 run in REFRESH_ONE_IN, with everything both runs compiled: that run
// pays about 1.5 ms, and the cache soon holds every path taken often (README "Performance").
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";
import { readFileBytes } from "../io/readInto.js";

/** os.tmpdir() without loading node:os (about 0.2 ms) where the rule is simple: POSIX. */
function tempDir(): string {
  if (process.platform === "win32") return tmpdir();
  const dir = process.env.TMPDIR || process.env.TMP || process.env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** A private folder for the cache: ours alone (0700, our uid), or none. */
function cacheDir(): string | undefined {
  const uid = process.getuid?.();
  // Concatenated: path.join would cost an active Stop its first-use compile.
  const dir = `${tempDir()}${sep}${uid === undefined ? "continuation-loop-v8" : `continuation-loop-v8-${uid}`}`;
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

/** Writes the cache beside older ones, atomically, and drops caches of older builds of the chunk. */
function saveCache(script: Script, dir: string, chunk: string, file: string): void {
  try {
    const data = script.createCachedData();
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    // `runStopHook-HASH.js` → drop `runStopHook-OTHERHASH.js.*` (other Node versions of this build stay).
    const stem = chunk.slice(0, chunk.lastIndexOf("-") + 1);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(stem) && /^[A-Z0-9]+\.js\./.test(name.slice(stem.length)) && !name.startsWith(`${chunk}.`))
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache is an optimisation: a full disk or a race with another hook changes nothing.
  }
}

const REFRESH_ONE_IN = 16;

/**
 * Save the cache at exit? When there is none or V8 rejected it; an accepted one now and then.
 * CONTINUATION_LOOP_CODE_CACHE=keep and =refresh make that never or always (for tests).
 */
function decideSave(cachedData: Uint8Array | undefined, script: Script): boolean {
  if (!cachedData || script.cachedDataRejected) return true;
  const mode = process.env.CONTINUATION_LOOP_CODE_CACHE;
  if (mode === "keep" || mode === "refresh") return mode === "refresh";
  return Math.random() * REFRESH_ONE_IN < 1;
}

/** Chunks already run in this process, shared by every bundle that loads them (one module instance each). */
const loaded: Map<string, Record<string, unknown>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("continuation-loop.chunks")
] ??= new Map()) as Map<string, Record<string, unknown>>;

/**
 * Runs a CommonJS chunk once and returns its exports; the chunk's bytecode comes from the cache
 * when one matches (file name = content hash, V8 version, architecture, flags).
 */
export function loadChunk(file: string): Record<string, unknown> {
  const done = loaded.get(file);
  if (done) return done;
  const source = readFileSync(file, "utf8");
  const chunk = basename(file);
  const dir = process.env.CONTINUATION_LOOP_CODE_CACHE === "0" ? undefined : cacheDir();
  const cacheFile = dir && `${dir}${sep}${chunk}.${process.versions.v8}.${process.arch}.cache`;
  let cachedData: Uint8Array | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileBytes(cacheFile);
    } catch {
      // not cached yet
    }
  }
  // The build wrapped the chunk in a function as Node wraps a CommonJS module (scripts/build.mjs).
  const script = new Script(source, {
    filename: file,
    ...(cachedData && { cachedData }),
  });
  if (dir && cacheFile && decideSave(cachedData, script)) {
    // At exit, so the bytecode of every function this run needed is in the cache.
    process.once("exit", () => saveCache(script, dir, chunk, cacheFile));
  }
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: object,
    filename: string,
    dirname: string,
  ) => void;
  // Chunks require only Node built-ins (every package is bundled in), so the bundle's own `require`
  // serves: createRequire() would cost each chunk about 0.2 ms.
  run(module.exports, require, module, file, dirname(file));
  loaded.set(file, module.exports);
  return module.exports;
}
