#!/usr/bin/env node
// Cost of one checkpoint (src/io/checkpoints.ts) on a 5,000-file repository. Plain Node plus the
// project's esbuild, which bundles the TypeScript into a temporary folder first.
//
//   node bench/checkpoint.mjs [--runs N] [--files N] [--keep]
//
// The repository: 80% of the files committed (in 40 folders), 20% untracked, a few ignored, each
// file 200–2,000 bytes. Timed in this process around writeCheckpoint(), as the Stop hook calls it:
// - first: a loop's first checkpoint, its untracked files' contents new to git (each run is a new
//   loop over rewritten untracked files);
// - one file changed: one tracked file edited since the previous checkpoint;
// - nothing changed: the same tree again.
// Prints median and p90 per case, then the same figures as JSON on the last line.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const RUNS = option("runs", 15);
const FILES = option("files", 5000);
const KEEP = args.includes("--keep");
const COMMITTED = Math.round(FILES * 0.8);

const work = mkdtempSync(join(tmpdir(), "cl-bench-checkpoint-"));
const home = join(work, "home");
mkdirSync(home);
// No user or system git config: the figures do not depend on this machine's settings.
const env = { PATH: process.env.PATH ?? "", HOME: home, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" };
const git = (cwd, ...argv) =>
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...argv], { cwd, env });

async function loadCheckpoints() {
  const esbuild = await import("esbuild");
  const outfile = join(work, "checkpoints.mjs");
  await esbuild.build({
    entryPoints: [join(ROOT, "src/io/checkpoints.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}

/** Deterministic contents: the same repository on every run of the benchmark. */
function contents(i) {
  const line = `file ${i}: ${"lorem ipsum dolor sit amet ".repeat(3)}\n`;
  return line.repeat(1 + (i % 20));
}

function buildTemplate() {
  const repo = join(work, "template");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, ".gitignore"), "build/\n*.log\n");
  for (let i = 0; i < COMMITTED; i++) write(repo, `src/m${i % 40}/file${i}.ts`, contents(i));
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "initial");
  for (let i = COMMITTED; i < FILES; i++) write(repo, `new/n${i % 10}/file${i}.ts`, contents(i));
  for (let i = 0; i < 5; i++) write(repo, `build/out${i}.js`, contents(i));
  write(repo, "debug.log", "ignored\n");
  return repo;
}

function write(repo, path, text) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

/**
 * A copy whose index matches its files, as a user's index does: refreshed a second after the copy,
 * since git re-reads (and so re-hashes) every file changed in the second its index was written.
 */
function settleCopy(from, to) {
  cpSync(from, to, { recursive: true });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100);
  git(to, "update-index", "-q", "--really-refresh");
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Math.round(x * 10) / 10;
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(sorted[0]), runs: sorted.length };
}

function time(run) {
  const started = performance.now();
  const result = run();
  return { ms: performance.now() - started, result };
}

const { writeCheckpoint } = await loadCheckpoints();
const template = buildTemplate();
const now = new Date();
const startedAt = now.toISOString();
const checkpoint = (root, iteration) => writeCheckpoint({ root, loop: "bench", iteration, env, now, startedAt });
const samples = { first: [], oneFileChanged: [], nothingChanged: [] };

// First checkpoint: a new loop each run, over untracked files rewritten with new contents, so
// that git has none of their objects yet (writing them is most of a first checkpoint's cost).
const fresh = join(work, "first");
settleCopy(template, fresh);
for (let run = 0; run < RUNS + 1; run++) {
  for (let i = COMMITTED; i < FILES; i++) write(fresh, `new/n${i % 10}/file${i}.ts`, `run ${run}\n${contents(i)}`);
  const { ms, result } = time(() =>
    writeCheckpoint({ root: fresh, loop: `first-${run}`, iteration: 1, env, now, startedAt }),
  );
  if (result.filesChanged !== FILES - COMMITTED) throw new Error(`unexpected count ${result.filesChanged}`);
  if (run > 0) samples.first.push(ms); // the first run warms the disk cache and the bundle
}

// Later checkpoints on one copy, alternating the two cases.
const repo = join(work, "steady");
settleCopy(template, repo);
let iteration = 1;
checkpoint(repo, iteration++);
for (let run = 0; run < RUNS + 1; run++) {
  write(repo, `src/m${run % 40}/file${run}.ts`, `edited in run ${run}\n`);
  const changed = time(() => checkpoint(repo, iteration++));
  const same = time(() => checkpoint(repo, iteration++));
  if (changed.result.filesChanged !== 1 || same.result.filesChanged !== 0) throw new Error("unexpected counts");
  if (run === 0) continue;
  samples.oneFileChanged.push(changed.ms);
  samples.nothingChanged.push(same.ms);
}

const report = {
  files: FILES,
  committed: COMMITTED,
  untracked: FILES - COMMITTED,
  git: execFileSync("git", ["--version"], { encoding: "utf8" }).trim(),
  node: process.version,
  cpus: cpus().length,
  first: stats(samples.first),
  oneFileChanged: stats(samples.oneFileChanged),
  nothingChanged: stats(samples.nothingChanged),
};
for (const name of ["first", "oneFileChanged", "nothingChanged"]) {
  const s = report[name];
  console.log(`${name.padEnd(16)} median ${String(s.median).padStart(7)} ms   p90 ${String(s.p90).padStart(7)} ms`);
}
if (!KEEP) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
console.log(JSON.stringify(report));
