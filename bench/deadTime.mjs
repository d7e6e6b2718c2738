#!/usr/bin/env node
// Dead time between one reply and the next request of a loop: with the companion module, on the command
// path, and with a one-line `node` Stop hook that only counts and exits 2, the least any Node hook can
// cost; beside them, that one-line hook handing its continuation to a module of a dozen lines that sends
// it as a prompt, the least a continuation sent as a new turn costs, and the same least module driving
// this plugin's own hooks, which tells the companion module's own part from Claude Code's new turn
// (docs/PERFORMANCE.md "Dead time").
// The real Claude Code CLI runs `-p` against the e2e suite's
// scripted Messages API (bundled from test/e2e/support by esbuild into a temporary folder); each round
// runs one loop of each arm, interleaved, so that the machine's load falls on all alike. Exits 1 when
// the command path is over the one-line hook + 50 ms, or the module over the command path + 20 ms.
//
//   node bench/deadTime.mjs [--rounds N] [--iterations N] [--version 2.1.332] [--hooks DIR] [--node 22,24,20|PATH]
//
// `--node`: the Node first on the loops' PATH, which runs every arm's hooks (bench/nodes.mjs); several run one
// bench each, in turn. The default is the Node running this script. The targets hold on Node 22 and later,
// as `npm run bench`'s; on an older Node the figures are for the record.
//
// `--hooks DIR` adds an arm: the companion module and hooks of another build (`node scripts/build.mjs DIR`
// from another commit), in the same rounds, for an A/B of a change to them.
//
// The gap measured is from the arrival of one main request to the arrival of the next: the scripted
// reply streams in about a millisecond, so the gap is the reply's handling, the Stop hooks, the hand-over
// and the next request's build. Prints each arm's median and p90, the difference of the medians, the
// load average before and after, then the same figures as JSON on the last line.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readNodeVersion, resolveNode, runEachNode } from "./nodes.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const ROUNDS = Number(option("rounds", 6));
const ITERATIONS = Number(option("iterations", 12));
const VERSION = option("version", "2.1.332");
const OTHER_HOOKS = option("hooks", undefined);
const fail = (message) => {
  console.error(`bench: ${message}`);
  process.exit(1);
};
if (!(ROUNDS >= 1 && ITERATIONS >= 3)) fail("--rounds must be at least 1 and --iterations at least 3");
const NODES = option("node", process.execPath)
  .split(",")
  .filter(Boolean)
  .map((spec) => resolveNode(spec) ?? fail(`no Node ${spec}: give its path to --node`));
if (NODES.length > 1) process.exit(runEachNode(fileURLToPath(import.meta.url), args, NODES));
const { version: NODE_VERSION, targeted: TARGETED } = readNodeVersion(NODES[0]);
/** The loops' PATH: this Node first, so that every arm's `node` is it. */
const PATH = `${dirname(NODES[0])}:${process.env.PATH ?? "/usr/bin:/bin"}`;

const work = mkdtempSync(join(tmpdir(), "cl-bench-deadtime-"));

async function loadSupport() {
  const esbuild = await import("esbuild");
  const outfile = join(work, "support.mjs");
  await esbuild.build({
    stdin: {
      contents: [
        'export * from "./test/e2e/support/messagesServer.ts";',
        'export * from "./test/e2e/support/loopProject.ts";',
        'export * from "./test/e2e/support/runClaude.ts";',
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
    // runClaude.ts finds the repository from its own file: keep that path the repository's.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(join(ROOT, "test/e2e/support/runClaude.ts")).href) },
  });
  return import(pathToFileURL(outfile).href);
}

const support = await loadSupport();
const version = support.CLAUDE_VERSIONS.find((v) => v.name === VERSION);
if (!version) fail(`--version must be one of ${support.CLAUDE_VERSIONS.map((v) => v.name).join(", ")}`);

/** Targets (docs/PERFORMANCE.md "Dead time"): the command path over the one-line hook, the module over the command path. */
const COMMAND_PATH_OVER_NODE_LINE = 50;
const MODULE_OVER_COMMAND_PATH = 20;

/**
 * A plugin whose Stop hook is one line of `node`: it counts its runs in the project and exits 2 until the
 * loop has had ITERATIONS turns. No state file, no parse, no lock: the floor of a Node Stop hook. With
 * `module`, the same line answers with its continuation as context (exit 0), and a module of a dozen
 * lines sends that as a prompt from the plugin, as the companion module does: the floor of a
 * continuation sent as a new turn, Claude Code's own cost of one beside the exit 2's.
 */
function writeLinePlugin(module) {
  const dir = join(work, module ? "module-line-plugin" : "node-line-plugin");
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "hooks"), { recursive: true });
  writeFileSync(join(dir, ".claude-plugin/plugin.json"), `{ "name": "${module ? "module-line" : "node-line"}" }\n`);
  const answer = module
    ? `process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'Stop',additionalContext:'go on'}}))`
    : `process.stderr.write('go on');process.exit(2)`;
  const line = `const f=process.env.CLAUDE_PROJECT_DIR+'/.count',s=require('fs');let n=0;try{n=+s.readFileSync(f,'utf8')}catch{}if(n<${ITERATIONS - 1}){s.writeFileSync(f,String(n+1));${answer}}`;
  const hooks = {
    ...(module && { modules: ["./line.mjs"] }),
    hooks: { Stop: [{ hooks: [{ type: "command", command: `node -e "${line}"` }] }] },
  };
  writeFileSync(join(dir, "hooks/hooks.json"), `${JSON.stringify(hooks, null, 2)}\n`);
  if (module) writeFileSync(join(dir, "hooks/line.mjs"), renderLeastModule(false));
  return dir;
}

/**
 * The least module that sends a Stop hook's context as the next prompt, once, and keeps the prompt hooks out.
 * With `live`, it drives this plugin's own hooks: it tells them a module is live and hands each Stop an id,
 * as the companion module does, takes the id line off the continuation, and does nothing more (no cost
 * figures, band, controls or waits). The companion module over that arm is its own part of the dead time.
 */
function renderLeastModule(live) {
  const onStart = live
    ? `  on("session.start", async ($, e, next) => {
    await $.env.set("CONTINUATION_LOOP_MODULE_LIVE", "least");
    return next(e);
  });
`
    : "";
  const handId = live
    ? `    stops += 1;
    await $.env.set("CONTINUATION_LOOP_STOP_ID", "least-stop-" + stops);
`
    : "";
  const take = live ? `context.slice(0, context.lastIndexOf("\\n", context.length - 2) + 1)` : "context";
  return `let pending;
let stops = 0;
const sent = [];
function send($) {
  const text = pending;
  pending = undefined;
  if (text === undefined) return;
  sent.push(text);
  $.prompt.submit({ text }).catch(() => {
    pending = text;
    $.clock.after(25, () => send($));
  });
}
export function register(on) {
${onStart}  on("classic.Stop", async ($, e, next) => {
${handId}    const result = await next(e);
    const context = result?.additionalContext?.[0];
    if (context === undefined) return result;
    pending = ${take};
    $.clock.after(0, () => send($));
    return {};
  });
  on("turn.complete", ($, e, next) => {
    send($);
    return next(e);
  });
  on("classic.UserPromptSubmit", ($, e, next) => {
    const at = sent.indexOf(e?.prompt);
    if (at < 0) return next(e);
    sent.splice(at, 1);
    return {};
  });
}
`;
}

/** This plugin's hooks and bundles as built, with the least module above in place of the companion module. */
function writeLeastModulePlugin() {
  const dir = join(work, "least-module-plugin");
  cpSync(join(ROOT, "hooks"), join(dir, "hooks"), { recursive: true });
  cpSync(join(ROOT, ".claude-plugin"), join(dir, ".claude-plugin"), { recursive: true });
  const hooks = JSON.parse(readFileSync(join(dir, "hooks/hooks.json"), "utf8"));
  writeFileSync(join(dir, "hooks/hooks.json"), JSON.stringify({ ...hooks, modules: ["./least.mjs"] }, null, 2));
  writeFileSync(join(dir, "hooks/least.mjs"), renderLeastModule(true));
  return dir;
}

/** This plugin with the hooks folder of another build in place of its own (its commands too, as it loads). */
function writeOtherBuildPlugin(hooksDir) {
  const dir = join(work, "other-build-plugin");
  cpSync(resolve(hooksDir), join(dir, "hooks"), { recursive: true });
  cpSync(join(ROOT, ".claude-plugin"), join(dir, ".claude-plugin"), { recursive: true });
  cpSync(join(ROOT, ".claude/commands"), join(dir, ".claude/commands"), { recursive: true });
  return dir;
}

const ARMS = ["nodeLine", "moduleLine", "commandPath", "module", "leastModule", ...(OTHER_HOOKS ? ["otherBuild"] : [])];

/** One loop of ITERATIONS iterations; the gaps between its main requests (the first request's start-up left out). */
async function runLoop(arm, plugins) {
  const project = support.makeLoopProject();
  support.trustProject(project);
  const line = arm === "nodeLine" || arm === "moduleLine" ? plugins[arm] : undefined;
  if (!line) project.writeState(`---\nmax_iterations: ${ITERATIONS}\nstall_limit: 0\n---\n\nWrite the summary.\n`);
  const arrivals = [];
  const server = await support.startMessagesServer(() => {
    arrivals.push(performance.now());
    return support.text(`working ${arrivals.length}`);
  });
  try {
    const env = {
      PATH,
      CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0",
      ...(arm === "commandPath" && { CONTINUATION_LOOP_MODULE: "0" }),
    };
    const r = await support.runClaude({
      version,
      prompt: "start",
      baseUrl: server.url,
      cwd: project.proj,
      home: project.home,
      pluginDirs: [plugins[arm] ?? support.PLUGIN_DIR],
      includeHookEvents: false,
      env,
    });
    const ends = line ? 1 : project.history().filter((h) => h.decision === "end").length;
    if (r.code !== 0 || arrivals.length !== ITERATIONS || ends !== 1)
      throw new Error(`a loop did not run its ${ITERATIONS} iterations: ${support.describeRun(r)}`);
    return arrivals.slice(1).map((t, i) => t - arrivals[i]);
  } finally {
    await server.close();
    project.cleanup();
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const round1 = (x) => Math.round(x * 10) / 10;

const loadBefore = loadavg().map(round1);
const gaps = Object.fromEntries(ARMS.map((arm) => [arm, []]));
try {
  const plugins = {
    nodeLine: writeLinePlugin(false),
    moduleLine: writeLinePlugin(true),
    leastModule: writeLeastModulePlugin(),
    ...(OTHER_HOOKS && { otherBuild: writeOtherBuildPlugin(OTHER_HOOKS) }),
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate which arm goes first, so that none always follows another.
    const order = ARMS.map((_, i) => ARMS[(i + round) % ARMS.length]);
    for (const arm of order) gaps[arm].push(...(await runLoop(arm, plugins)));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const loadAfter = loadavg().map(round1);
const armFigures = (arm) => ({
  n: gaps[arm].length,
  median: round1(quantile(gaps[arm], 0.5)),
  p90: round1(quantile(gaps[arm], 0.9)),
});

const figures = {
  version: VERSION,
  node: NODE_VERSION,
  rounds: ROUNDS,
  iterations: ITERATIONS,
  cores: cpus().length,
  loadBefore,
  loadAfter,
  ...Object.fromEntries(ARMS.map((arm) => [arm, armFigures(arm)])),
};
figures.commandPathMinusNodeLine = round1(figures.commandPath.median - figures.nodeLine.median);
figures.moduleMinusCommandPath = round1(figures.module.median - figures.commandPath.median);
// For the record: what a continuation sent as a new turn costs over an exit 2 with the least hooks.
figures.moduleLineMinusNodeLine = round1(figures.moduleLine.median - figures.nodeLine.median);
// For the record: the companion module's own part, over the least module driving the same hooks.
figures.moduleMinusLeastModule = round1(figures.module.median - figures.leastModule.median);
figures.leastModuleMinusCommandPath = round1(figures.leastModule.median - figures.commandPath.median);
if (OTHER_HOOKS) figures.moduleMinusOtherBuild = round1(figures.module.median - figures.otherBuild.median);
console.log(
  `Claude Code ${VERSION}, hooks on Node ${NODE_VERSION}, ${ROUNDS} rounds of ${ITERATIONS} iterations per arm, ${figures.cores} cores`,
);
console.log(`load average before ${loadBefore.join(" ")}, after ${loadAfter.join(" ")}`);
const LABELS = {
  nodeLine: "one-line node",
  moduleLine: "one-line module",
  commandPath: "command path",
  module: "module",
  leastModule: "least module",
  otherBuild: "other build",
};
for (const arm of ARMS) {
  const f = figures[arm];
  console.log(`${`${LABELS[arm]}:`.padEnd(18)} median ${f.median} ms, p90 ${f.p90} ms (${f.n} gaps)`);
}
const verdict = (value, target) => (!TARGETED ? "for the record" : value <= target ? "pass" : "FAIL");
console.log(
  `command path − one-line node: ${figures.commandPathMinusNodeLine} ms (target: at most ${COMMAND_PATH_OVER_NODE_LINE} ms) ${verdict(figures.commandPathMinusNodeLine, COMMAND_PATH_OVER_NODE_LINE)}`,
);
console.log(
  `module − command path: ${figures.moduleMinusCommandPath} ms (target: at most ${MODULE_OVER_COMMAND_PATH} ms) ${verdict(figures.moduleMinusCommandPath, MODULE_OVER_COMMAND_PATH)}`,
);
console.log(
  `one-line module − one-line node: ${figures.moduleLineMinusNodeLine} ms (Claude Code's own cost of a new turn; no target)`,
);
console.log(
  `module − least module with these hooks: ${figures.moduleMinusLeastModule} ms (the companion module's own part; no target)`,
);
console.log(
  `least module with these hooks − command path: ${figures.leastModuleMinusCommandPath} ms (what any module sending a prompt adds; no target)`,
);
if (OTHER_HOOKS)
  console.log(`module − the other build's module (${OTHER_HOOKS}): ${figures.moduleMinusOtherBuild} ms (no target)`);
console.log(JSON.stringify(figures));
if (!TARGETED)
  console.log(`Node ${NODE_VERSION} is older than Claude Code's own minimum (22): the figures are for the record.`);
const missed =
  TARGETED &&
  (figures.commandPathMinusNodeLine > COMMAND_PATH_OVER_NODE_LINE ||
    figures.moduleMinusCommandPath > MODULE_OVER_COMMAND_PATH);
process.exitCode = missed ? 1 : 0;
