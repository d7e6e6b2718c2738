#!/usr/bin/env node
// Dead time between one reply and the next request of a loop, with the companion module and without it
// (SPEC §11 "No extra work per iteration"; docs/HEADLESS.md). The real Claude Code CLI runs `-p` against
// the e2e suite's scripted Messages API (bundled from test/e2e/support by esbuild into a temporary folder);
// each round runs one loop with the module and one without, interleaved, so that the machine's load
// falls on both alike.
//
//   node bench/deadTime.mjs [--rounds N] [--iterations N] [--version 2.1.332]
//
// The gap measured is from the arrival of one main request to the arrival of the next: the scripted
// reply streams in about a millisecond, so the gap is the reply's handling, the Stop hooks, the hand-over
// and the next request's build. Prints each arm's median and p90, the difference of the medians, the
// load average before and after, then the same figures as JSON on the last line.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const ROUNDS = Number(option("rounds", 6));
const ITERATIONS = Number(option("iterations", 12));
const VERSION = option("version", "2.1.332");
if (!(ROUNDS >= 1 && ITERATIONS >= 3)) {
  console.error("bench: --rounds must be at least 1 and --iterations at least 3");
  process.exit(1);
}

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
if (!version) {
  console.error(`bench: --version must be one of ${support.CLAUDE_VERSIONS.map((v) => v.name).join(", ")}`);
  process.exit(1);
}

/** One loop of ITERATIONS iterations; the gaps between its main requests (the first request's start-up left out). */
async function runLoop(moduleOn) {
  const project = support.makeLoopProject();
  support.trustProject(project);
  project.writeState(`---\nmax_iterations: ${ITERATIONS}\nstall_limit: 0\n---\n\nWrite the summary.\n`);
  const arrivals = [];
  const server = await support.startMessagesServer(() => {
    arrivals.push(performance.now());
    return support.text(`working ${arrivals.length}`);
  });
  try {
    const env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0", ...(moduleOn ? {} : { CONTINUATION_LOOP_MODULE: "0" }) };
    const r = await support.runClaude({
      version,
      prompt: "start",
      baseUrl: server.url,
      cwd: project.proj,
      home: project.home,
      pluginDirs: [support.PLUGIN_DIR],
      includeHookEvents: false,
      env,
    });
    const ends = project.history().filter((h) => h.decision === "end").length;
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
const gaps = { module: [], commandPath: [] };
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which arm goes first, so that neither always follows the other.
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const moduleOn of order) gaps[moduleOn ? "module" : "commandPath"].push(...(await runLoop(moduleOn)));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const loadAfter = loadavg().map(round1);

const figures = {
  version: VERSION,
  rounds: ROUNDS,
  iterations: ITERATIONS,
  cores: cpus().length,
  loadBefore,
  loadAfter,
  module: {
    n: gaps.module.length,
    median: round1(quantile(gaps.module, 0.5)),
    p90: round1(quantile(gaps.module, 0.9)),
  },
  commandPath: {
    n: gaps.commandPath.length,
    median: round1(quantile(gaps.commandPath, 0.5)),
    p90: round1(quantile(gaps.commandPath, 0.9)),
  },
};
figures.moduleMinusCommandPath = round1(figures.module.median - figures.commandPath.median);
console.log(`Claude Code ${VERSION}, ${ROUNDS} rounds of ${ITERATIONS} iterations per arm, ${figures.cores} cores`);
console.log(`load average before ${loadBefore.join(" ")}, after ${loadAfter.join(" ")}`);
console.log(
  `module:       median ${figures.module.median} ms, p90 ${figures.module.p90} ms (${figures.module.n} gaps)`,
);
console.log(
  `command path: median ${figures.commandPath.median} ms, p90 ${figures.commandPath.p90} ms (${figures.commandPath.n} gaps)`,
);
console.log(`module − command path: ${figures.moduleMinusCommandPath} ms (target: at most 20 ms)`);
console.log(JSON.stringify(figures));
