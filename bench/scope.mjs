#!/usr/bin/env node
// Cost of `scope` on an active Stop (README "Improvement loops") in a 5,000-file repository: the
// bundled hooks/stop.js run as Claude Code runs it, a process fed the Stop JSON, in a repository
// like bench/checkpoint.mjs's (80% of the files committed in 40 folders, 20% untracked, a few ignored).
//
//   node bench/scope.mjs [--runs N] [--files N] [--keep]
//
// Cases, each an active Stop that continues the loop (exit 2), with a new reply each time:
// - no scope: the same loop without the field (what an active Stop costs in this repository);
// - scope, one file changed: one tracked file under scope edited since the previous Stop;
// - scope, nothing changed: the same tree as at the previous Stop.
// `node -e 0` is timed in the same run for the ratio. Prints median and p90 per case, the scope
// Stop's cost over the Stop without it, then the figures as JSON on the last line.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STOP = join(ROOT, "hooks", "stop.js");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const RUNS = option("runs", 15);
const FILES = option("files", 5000);
const KEEP = args.includes("--keep");
const COMMITTED = Math.round(FILES * 0.8);

const work = mkdtempSync(join(tmpdir(), "cl-bench-scope-"));
const home = join(work, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH ?? "", HOME: home, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" };
const git = (cwd, ...argv) =>
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...argv], { cwd, env });

function contents(i) {
  return `file ${i}: ${"lorem ipsum dolor sit amet ".repeat(3)}\n`.repeat(1 + (i % 20));
}

function write(repo, path, text) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

function buildTemplate() {
  const repo = join(work, "template");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, ".gitignore"), "build/\n*.log\n.claude/\n");
  for (let i = 0; i < COMMITTED; i++) write(repo, `src/m${i % 40}/file${i}.ts`, contents(i));
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "initial");
  for (let i = COMMITTED; i < FILES; i++) write(repo, `new/n${i % 10}/file${i}.ts`, contents(i));
  for (let i = 0; i < 5; i++) write(repo, `build/out${i}.js`, contents(i));
  write(repo, "debug.log", "ignored\n");
  return repo;
}

/** A copy whose index matches its files (see bench/checkpoint.mjs), with a loop of its own. */
function project(template, name, fields) {
  const repo = join(work, name);
  cpSync(template, repo, { recursive: true });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100);
  git(repo, "update-index", "-q", "--really-refresh");
  write(repo, ".claude/continuation-loop.local.md", `---\nmax_iterations: 10000\n${fields}---\nKeep going.\n`);
  return repo;
}

let turn = 0;
/** One active Stop, timed as a whole process; it must continue the loop. */
function stop(repo) {
  const input = JSON.stringify({
    session_id: "bench",
    cwd: repo,
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: `Working, turn ${++turn}.`,
  });
  const started = performance.now();
  const run = spawnSync(process.execPath, [STOP], { input, cwd: repo, env, encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 2) throw new Error(`the Stop did not continue (${run.status}): ${run.stdout}${run.stderr}`);
  return ms;
}

function nodeAlone() {
  const started = performance.now();
  spawnSync(process.execPath, ["-e", "0"], { env });
  return performance.now() - started;
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Math.round(x * 10) / 10;
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(sorted[0]), runs: sorted.length };
}

const template = buildTemplate();
const plain = project(template, "plain", "");
const scoped = project(template, "scoped", "scope: [src, new]\n");
// The first Stop of each loop: the scoped one records the tree it compares the next Stop with.
stop(plain);
stop(scoped);
const samples = { node: [], noScope: [], scopeOneFileChanged: [], scopeNothingChanged: [] };
for (let run = 0; run < RUNS + 1; run++) {
  const node = nodeAlone();
  const none = stop(plain);
  write(scoped, `src/m${run % 40}/file${run}.ts`, `edited in run ${run}\n`);
  const changed = stop(scoped);
  const same = stop(scoped);
  if (run === 0) continue; // warms the disk cache and the code cache
  samples.node.push(node);
  samples.noScope.push(none);
  samples.scopeOneFileChanged.push(changed);
  samples.scopeNothingChanged.push(same);
}

const report = {
  files: FILES,
  committed: COMMITTED,
  untracked: FILES - COMMITTED,
  git: execFileSync("git", ["--version"], { encoding: "utf8" }).trim(),
  node: process.version,
  cpus: cpus().length,
  ...Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, stats(list)])),
};
for (const name of Object.keys(samples)) {
  const s = report[name];
  const ratio = (s.median / report.node.median).toFixed(2);
  console.log(
    `${name.padEnd(20)} median ${String(s.median).padStart(7)} ms   p90 ${String(s.p90).padStart(7)} ms   ${ratio}× node -e 0`,
  );
}
const cost = (name) => Math.round((report[name].median - report.noScope.median) * 10) / 10;
report.scopeCost = { oneFileChanged: cost("scopeOneFileChanged"), nothingChanged: cost("scopeNothingChanged") };
console.log(
  `scope adds ${report.scopeCost.oneFileChanged} ms (one file changed), ${report.scopeCost.nothingChanged} ms (nothing changed) to the median active Stop`,
);
if (!KEEP) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
console.log(JSON.stringify(report));
