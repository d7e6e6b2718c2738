#!/usr/bin/env node
// `npm run bench`: whole-process latency of the bundled hooks (hooks/*.js), each case as a ratio to
// `node -e 0` timed in the same rounds, interleaved; exits 1 when a target is missed. The method,
// the cases and the figures: docs/PERFORMANCE.md.
//
//   node bench/run.mjs [--runs N] [--only id,id] [--big-mb N] [--hooks DIR,DIR] [--node 20,22,24|PATH]
//
// --hooks: run each case once per hooks folder in the same rounds (A/B of builds made with
// `node scripts/build.mjs DIR`); the default is this repository's hooks/.
// --node: the Node that runs the hooks and `node -e 0`: a major version (the suite's own binary under
// test/node-versions, or this Node when it is that version) or a path; several run one bench each, in
// turn. The default is the Node running this script. Targets hold on Node 22 and later (Claude Code's
// own minimum); on an older Node every row is for the record.
import { execFileSync, spawnSync } from "node:child_process";
import { build } from "esbuild";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, platform, release, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { makeFixtures } from "./fixtures.mjs";
import { readNodeVersion, resolveNode, runEachNode } from "./nodes.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HOOKS = join(ROOT, "hooks");
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const RUNS = Number(option("runs", 100));
const BIG_MB = Number(option("big-mb", 200));
const ONLY = option("only", "").split(",").filter(Boolean);
const HOOK_DIRS = option("hooks", HOOKS)
  .split(",")
  .filter(Boolean)
  .map((dir) => resolve(dir));
const fail = (message) => {
  console.error(`bench: ${message}`);
  process.exit(1);
};
const NODES = option("node", process.execPath)
  .split(",")
  .filter(Boolean)
  .map((spec) => resolveNode(spec) ?? fail(`no Node ${spec}: give its path to --node`));
// One whole bench per Node, one after the other; exit 1 when any missed a target.
if (NODES.length > 1) process.exit(runEachNode(fileURLToPath(import.meta.url), argv, NODES));
const NODE = NODES[0];
const { version: NODE_VERSION, targeted: TARGETED } = readNodeVersion(NODE);
if (!(RUNS >= 10)) fail("--runs must be at least 10");

const SESSION = "3f1c9b2e-7a4d-4e8b-9c21-5d6e7f8a9b0c";
const TODO_SESSION = "7c0d5e1f-2b3a-4c4d-8e5f-6a7b8c9d0e1f";
/** An active Stop: at most the floor (bench/floor.ts, timed in the same rounds) plus this. */
const ACTIVE_OVER_FLOOR = 0.4;
const ACTIVE = "floor";
const IDLE = 1.1;
const PROMPT = 1.25;
/** The prompt hook with 50 todos or this session's loop running. */
const PROMPT_BUSY = 1.5;

// ---------------------------------------------------------------- the cases
// One row per case. hook: the bundle run; event: the stdin's event and its fields (Stop, or the
// prompt hook's UserPromptSubmit, by default); project: a fixture folder (below); transcript:
// "small" (10 KB) or "big" (--big-mb), none if absent; loop: a loop of this session (the state file
// and sidecar a previous Stop left) written before every run, with `field` lines added to it; env:
// added to the hook's environment; expect: "todos" for the todo reminder (otherwise an active
// Stop must continue the loop and every other case must be quiet); target: ratio to `node -e 0`,
// none for a row kept for the record.
// biome-ignore format: one line per case keeps the table readable
const CASES = [
  { id: "stop-idle", label: "Stop, no loop (idle)", hook: "stop", project: "idle", transcript: "small", target: IDLE },
  { id: "stop-idle-20", label: "Stop, 20 loops of other sessions (idle)", hook: "stop", project: "crowded", transcript: "small", target: IDLE },
  { id: "stop-idle-sh", label: "Stop, no loop, hooks.json's command (sh -c)", hook: "stop", shell: "guard", project: "idle", transcript: "small", target: IDLE },
  { id: "stop-idle-sh-plain", label: "Stop, no loop, sh -c 'node stop.js' (no guard)", hook: "stop", shell: "plain", project: "idle", transcript: "small" },
  { id: "session-startup", label: "SessionStart (startup): the Node check", hook: "session", event: { hook_event_name: "SessionStart", source: "startup" }, project: "idle", transcript: "small", target: IDLE },
  { id: "session-compact", label: "SessionStart (compact), no loop", hook: "session", event: { hook_event_name: "SessionStart", source: "compact" }, project: "idle", transcript: "small", target: IDLE },
  { id: "session-clear", label: "SessionStart (clear), no loop carried", hook: "session", event: { hook_event_name: "SessionStart", source: "clear" }, project: "idle", transcript: "small", target: IDLE },
  { id: "session-end", label: "SessionEnd (clear), no loop", hook: "session", event: { hook_event_name: "SessionEnd", reason: "clear" }, project: "idle", transcript: "small", target: IDLE },
  { id: "stop-failure", label: "StopFailure, no loop", hook: "session", event: { hook_event_name: "StopFailure", error: "rate_limit" }, project: "idle", transcript: "small", target: IDLE },
  { id: "stop-active", label: "Stop, active loop, no transcript", hook: "stop", project: "plain", loop: true, target: ACTIVE },
  { id: "stop-active-10k", label: "Stop, active loop, 10 KB transcript", hook: "stop", project: "plain", transcript: "small", loop: true, target: ACTIVE },
  { id: "stop-active-big", label: `Stop, active loop, ${BIG_MB} MB transcript`, hook: "stop", project: "plain", transcript: "big", loop: true, target: ACTIVE },
  { id: "stop-active-git", label: "Stop, active, 10 KB, in a git repository", hook: "stop", project: "git", transcript: "small", loop: true, target: ACTIVE },
  { id: "stop-active-checkpoints", label: "Stop, active, checkpoints, 5,000-file repo", hook: "stop", project: "repo5000", transcript: "small", loop: true, field: "checkpoints: true" },
  { id: "stop-active-module", label: "Stop, active, 10 KB, companion module live", hook: "stop", project: "plain", transcript: "small", loop: true, env: { CONTINUATION_LOOP_MODULE_LIVE: "2.1.331", CONTINUATION_LOOP_COST_USD: "0.42", CONTINUATION_LOOP_TURN_COST_USD: "0.40", CONTINUATION_LOOP_STOP_ID: "bench-stop-0001" }, target: ACTIVE },
  { id: "stop-active-scope", label: "Stop, active, scope, 5,000-file repo", hook: "stop", project: "repo5000", transcript: "small", loop: true, field: "scope: ." },
  { id: "prompt-none", label: "Prompt hook, no loop, no todos", hook: "prompt", project: "prompt", transcript: "small", target: PROMPT },
  { id: "prompt-50", label: "Prompt hook, no loop, 50 todos", hook: "prompt", project: "prompt", transcript: "small", session: TODO_SESSION, expect: "todos", target: PROMPT_BUSY },
  { id: "prompt-none-big", label: `Prompt hook, no todos, ${BIG_MB} MB transcript`, hook: "prompt", project: "prompt", transcript: "big" },
  { id: "prompt-loop", label: "Prompt hook, this session's loop running", hook: "prompt", project: "promptLoop", transcript: "small", loop: true, target: PROMPT_BUSY },
];
/** The least active Stop the contract allows (bench/floor.ts), built below; for the record, beside the real one. */
const FLOOR = {
  id: "stop-floor",
  label: "Stop floor: the contract's packages alone",
  hook: "stop",
  project: "plain",
  transcript: "small",
  loop: true,
  floor: true,
};
/** The active Stop over a 200 MB transcript against the same over 10 KB, median against median. */
const SCALING = { big: "stop-active-big", small: "stop-active-10k", target: 1.05 };
/** The idle Stop as hooks.json runs it, through the shell and its Node guard, against the bare bundle. */
const GUARD = { sh: "stop-idle-sh", plain: "stop-idle-sh-plain", bare: "stop-idle" };
/**
 * A `shell` case runs hooks.json's own command for its hook through `/bin/sh -c`, as Claude Code does
 * (`guard`), or the plain `node "…"` command it had before the guard (`plain`), with the bench's Node
 * first on PATH and the hooks folder in place of `${CLAUDE_PLUGIN_ROOT}/hooks`. Each folder's own
 * hooks.json: an A/B of two folders compares their commands too.
 */
const shellCommand = (c) => {
  const table = JSON.parse(readFileSync(join(c.hooks, "hooks.json"), "utf8")).hooks;
  const event = c.hook === "stop" ? "Stop" : "UserPromptSubmit";
  const command =
    c.shell === "guard" ? table[event][0].hooks[0].command : `node "\${CLAUDE_PLUGIN_ROOT}/hooks/${c.hook}.js"`;
  return command.replaceAll("${CLAUDE_PLUGIN_ROOT}/hooks", c.hooks);
};

const chosen = ONLY.length ? CASES.filter((c) => ONLY.includes(c.id)) : CASES;
// The active Stop's target is relative to the floor: any active case brings the floor into the run.
const withFloor = !ONLY.length || ONLY.includes(FLOOR.id) || chosen.some((c) => c.target === ACTIVE);
if (!chosen.length) fail(`--only matches no case; cases: ${CASES.map((c) => c.id).join(", ")}`);
// One case per hooks folder; with several, each id and label names its folder.
const cases = HOOK_DIRS.flatMap((hooks, i) =>
  chosen.map((c) =>
    HOOK_DIRS.length === 1 ? { ...c, hooks } : { ...c, hooks, id: `${c.id}@${i + 1}`, label: `${c.label} @${i + 1}` },
  ),
);
const TMP = mkdtempSync(join(tmpdir(), "cl-bench-"));
process.on("exit", () => rmSync(TMP, { recursive: true, force: true }));
if (withFloor) {
  // Built as the hooks are (scripts/build.mjs), and started as they are: Node's compile cache on, then a plain require.
  const dir = join(TMP, "floor");
  const yaml = join(dirname(createRequire(import.meta.url).resolve("yaml/package.json")), "browser/index.js");
  const alias = { yaml, "js-yaml": join(ROOT, "scripts/js-yaml-unused.cjs") };
  const options = { bundle: true, format: "cjs", platform: "node", target: "node20", minify: true, alias };
  await build({
    ...options,
    entryPoints: [join(ROOT, "bench/floor.ts")],
    outfile: join(dir, "floor.js"),
    logLevel: "warning",
  });
  writeFileSync(join(dir, "package.json"), '{ "type": "commonjs" }\n');
  writeFileSync(join(dir, "stop.js"), 'require("node:module").enableCompileCache?.();\nrequire("./floor.js");\n');
  cases.push({ ...FLOOR, hooks: dir });
}
for (const c of cases) {
  if (!existsSync(join(c.hooks, `${c.hook}.js`)))
    fail(`${c.hooks}/${c.hook}.js is missing: run \`npm run build\` first`);
  if (c.shell === "guard" && !existsSync(join(c.hooks, "hooks.json")))
    fail(`${c.hooks}/hooks.json is missing: copy the hooks.json whose commands that folder should run into it`);
}

// ---------------------------------------------------------------- fixtures
process.on("SIGINT", () => process.exit(130));
const { HOME, CONFIG, REPLY, CONTINUATION, transcript, stateText, sidecarText, project } = makeFixtures({
  tmp: TMP,
  root: ROOT,
  bigMb: BIG_MB,
  session: SESSION,
  todoSession: TODO_SESSION,
});

// ---------------------------------------------------------------- runs
const envFor = (root, extra) => {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME, CLAUDE_CONFIG_DIR: CONFIG };
  return { ...env, CLAUDE_PROJECT_DIR: root, TMPDIR: join(TMP, "tmp"), ...extra };
};
const PROMPT_INPUT = { permission_mode: "default", hook_event_name: "UserPromptSubmit", prompt: "Add a test for it." };
// As Claude Code sends it: its lists of background work are empty, not absent, when nothing runs.
const STOP_INPUT = {
  permission_mode: "default",
  hook_event_name: "Stop",
  stop_hook_active: true,
  background_tasks: [],
  session_crons: [],
};
const inputFor = (c, root, t) => {
  const event = c.event ?? (c.hook === "prompt" ? PROMPT_INPUT : { ...STOP_INPUT, last_assistant_message: REPLY });
  const transcriptPath = t && { transcript_path: t.path };
  return JSON.stringify({ session_id: c.session ?? SESSION, ...transcriptPath, cwd: root, ...event });
};

/** A case as a run: argv, stdin, env, the reset before each run, and the check made once before timing. */
function prepare(c) {
  const root = project(c.project);
  const t = c.transcript && transcript(c.transcript);
  const file = (name) => join(root, ".claude", `continuation-loop.${name}`);
  const [state, sidecar] = [stateText(c.field), sidecarText(t)];
  const continues = c.loop && c.hook === "stop";
  const reset = () => {
    if (!c.loop) return;
    writeFileSync(file("local.md"), state);
    writeFileSync(file("runtime.json"), sidecar);
    rmSync(file("history.jsonl"), { force: true });
    rmSync(join(root, ".git/refs/continuation-loop"), { recursive: true, force: true }); // checkpoints
  };
  const check = (run) => {
    const out = `exit ${run.status}, stdout ${run.stdout.slice(0, 200)}, stderr ${run.stderr.slice(0, 300)}`;
    if (c.expect === "todos")
      return run.status === 0 && /TODO CONTINUATION.*and 28 more/s.test(run.stdout) ? "" : `no todo reminder: ${out}`;
    if (!continues) return run.status === 0 && !run.stdout && !run.stderr ? "" : `not quiet: ${out}`;
    // Where the module asked (a Stop id), the continuation is context for it, exit 0 (docs/REFERENCE.md "The companion module").
    const sent = c.env?.CONTINUATION_LOOP_STOP_ID
      ? run.status === 0 && JSON.parse(run.stdout || "{}").hookSpecificOutput?.additionalContext
      : run.status === 2 && run.stderr;
    if (!sent?.startsWith(CONTINUATION.slice(0, 44))) return `loop not continued: ${out}`;
    if (!/\niteration_count: 5\b/.test(readFileSync(file("local.md"), "utf8"))) return "iteration_count is not 5";
    if (c.floor) return "";
    const { transcript_offset: offset, output_tokens: tokens } = JSON.parse(readFileSync(file("runtime.json"), "utf8"));
    if (t && offset !== statSync(t.path).size) return `transcript_offset ${offset}: the transcript was not read`;
    return t && !(tokens > t.remembered.tokens) ? "output_tokens did not grow" : "";
  };
  const input = inputFor(c, root, t);
  if (c.shell) {
    const env = envFor(root, { ...c.env, PATH: `${dirname(NODE)}:${process.env.PATH ?? "/usr/bin:/bin"}` });
    return { ...c, program: "/bin/sh", args: ["-c", shellCommand(c)], cwd: root, env, input, reset, check };
  }
  return { ...c, args: [join(c.hooks, `${c.hook}.js`)], cwd: root, env: envFor(root, c.env), input, reset, check };
}

const spawnRun = (r) =>
  spawnSync(r.program ?? NODE, r.args, { input: r.input, cwd: r.cwd, env: r.env, encoding: "utf8", timeout: 60_000 });
function timed(r) {
  r.reset();
  const start = process.hrtime.bigint();
  const run = spawnRun(r);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // Only the exit status here: reading files back would cost time between runs.
  const expected = r.loop && r.hook === "stop" && !r.env.CONTINUATION_LOOP_STOP_ID ? 2 : 0;
  if (run.status !== expected) fail(`${r.label}: exit ${run.status} while timing: ${run.stderr.slice(0, 300)}`);
  return ms;
}

console.log(`bench: writing fixtures in ${TMP} …`);
const runs = cases.map(prepare);
const base = prepare({
  id: "baseline",
  label: "node -e 0",
  hooks: HOOKS,
  hook: "stop",
  project: "plain",
  transcript: "small",
});
const baseline = { ...base, args: ["-e", "0"] };
for (const r of runs) {
  r.reset();
  const run = spawnRun(r);
  const problem = run.error?.message ?? r.check(run);
  if (problem) fail(`${r.label}: the fixture does not behave as expected, so its time would mean nothing: ${problem}`);
}
// The fixtures' own writes (a 200 MB transcript, 5,000 files) reach the disk before the first timed run.
if (platform() !== "win32") execFileSync("sync");
console.log(`bench: ${runs.length} cases checked; 3 warm-up and ${RUNS} timed rounds …`);

const loadBefore = loadavg()[0];
const samples = Object.fromEntries([baseline, ...runs].map((r) => [r.id, []]));
const paired = Object.fromEntries(runs.map((r) => [r.id, []]));
for (let round = -3; round < RUNS; round++) {
  for (let k = 0; k < runs.length; k++) {
    const r = runs[(k + round + 3) % runs.length];
    const [b, t] = [timed(baseline), timed(r)];
    if (round < 0) continue;
    samples.baseline.push(b);
    samples[r.id].push(t);
    paired[r.id].push(t / b);
  }
  if (round >= 0 && (round + 1) % 20 === 0) console.log(`bench: ${round + 1}/${RUNS} rounds`);
}

// ---------------------------------------------------------------- results
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
};
const median = (xs) => quantile(xs, 0.5);
const ratioOf = (id) => median(samples[id]) / median(samples.baseline);
// Each build's floor is the same code, so one floor serves every --hooks folder.
const floorRatio = samples[FLOOR.id]?.length ? ratioOf(FLOOR.id) : undefined;
const targetOf = (target) => {
  if (!TARGETED || target === undefined) return undefined;
  return target === ACTIVE ? floorRatio + ACTIVE_OVER_FLOOR : target;
};
const row = (id, label, xs, target, ratio = median(xs) / median(samples.baseline)) => {
  const figures = { median: median(xs), paired: paired[id] && median(paired[id]), p90: quantile(xs, 0.9) };
  return { id, label, ...figures, ratio, target, pass: target === undefined ? undefined : ratio <= target };
};
const rows = [
  row("baseline", "node -e 0 (baseline)", samples.baseline),
  ...runs.map((r) => row(r.id, r.label, samples[r.id], targetOf(r.target))),
];
const medianOf = (id) => samples[id]?.length && median(samples[id]);
if (medianOf(SCALING.big) && medianOf(SCALING.small)) {
  const ratio = medianOf(SCALING.big) / medianOf(SCALING.small);
  const label = `${BIG_MB} MB transcript vs 10 KB (active Stop)`;
  const target = targetOf(SCALING.target);
  rows.push({ id: "big-vs-10k", label, ratio, target, pass: target === undefined ? undefined : ratio <= target });
}

// Per hooks folder, as the cases' ids name them.
for (const at of HOOK_DIRS.length === 1 ? [""] : HOOK_DIRS.map((_, i) => `@${i + 1}`))
  for (const [against, what] of [
    ["bare", "bare node stop.js"],
    ["plain", "sh -c 'node stop.js'"],
  ]) {
    if (!medianOf(GUARD.sh + at) || !medianOf(GUARD[against] + at)) continue;
    const ratio = medianOf(GUARD.sh + at) / medianOf(GUARD[against] + at);
    const label = `idle Stop: hooks.json's command vs ${what}${at && ` ${at}`}`;
    rows.push({ id: `guard-vs-${against}${at}`, label, ratio });
  }

const ms = (x) => (x === undefined ? "" : `${x.toFixed(1)} ms`).padStart(9);
const times = (x) => (x === undefined ? "" : `${x.toFixed(2)}×`).padStart(6);
const header = `${"case".padEnd(46)} ${"median".padStart(9)} ${"ratio".padStart(6)} ${"paired".padStart(6)} ${"p90".padStart(9)}  target`;
console.log(`\n${header}\n${"-".repeat(header.length + 14)}`);
for (const r of rows) {
  const record = r.id === "baseline" ? "" : "for the record";
  const target = r.target === undefined ? record : `≤ ${r.target.toFixed(2)}×  ${r.pass ? "pass" : "FAIL"}`;
  console.log(`${r.label.padEnd(46)} ${ms(r.median)} ${times(r.ratio)} ${times(r.paired)} ${ms(r.p90)}  ${target}`);
}
const [cpu, node, os] = [cpus()[0]?.model ?? "unknown CPU", NODE_VERSION, `${platform()} ${release()}`];
const load = [loadBefore, loadavg()[0]].map((x) => x.toFixed(2));
console.log(`\n${cpu}, ${cpus().length} cores, ${os}, Node ${node}, load average ${load.join(" → ")}; ${RUNS} rounds.`);
if (floorRatio !== undefined && TARGETED)
  console.log(`An active Stop's target: the floor ${floorRatio.toFixed(2)}× + ${ACTIVE_OVER_FLOOR.toFixed(2)}×.`);
if (!TARGETED) console.log(`Node ${node} is older than Claude Code's own minimum (22): every row is for the record.`);
if (HOOK_DIRS.length > 1) console.log(HOOK_DIRS.map((dir, i) => `@${i + 1}: ${dir}`).join("\n"));
const results = { date: new Date().toISOString(), cpu, os, node, load, rounds: RUNS, hooks: HOOK_DIRS, rows, samples };
writeFileSync(
  join(ROOT, "bench", `results-node${node.slice(1).split(".")[0]}.json`),
  `${JSON.stringify(results, null, 2)}\n`,
);
const failed = rows.filter((r) => r.pass === false).map((r) => r.id);
console.log(
  failed.length ? `bench: targets not met: ${failed.join(", ")}` : TARGETED ? "bench: every target met" : "bench: done",
);
process.exitCode = failed.length ? 1 : 0;
