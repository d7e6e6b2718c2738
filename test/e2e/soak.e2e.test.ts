// Long loops in `claude -p` (docs/HEADLESS.md; `npm run test:soak`, not in `npm test`): on the newest
// Claude Code, 200 iterations with the companion module, 200 without it, and a fresh_context loop of 200,
// each run to its own limit with every iteration once and in order. The module's runs write more than
// 1 MiB of stream-json: a caller that buffers the output with Node's default maxBuffer kills Claude Code
// (SIGTERM, exit 143) at about 120 iterations; this runner reads the stream whole.
import { describe, expect, it } from "vitest";
import { expectEveryIterationOnce, numberedReplies } from "./soakSupport.js";
import { PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { describeRun, runClaude, NEWEST } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const ITERATIONS = 200;
/** Node's default `maxBuffer` for execFile, exec and spawnSync. */
const NODE_MAX_BUFFER = 1024 * 1024;

const t = perTest();

async function soak(opts: { module: boolean; fresh?: boolean }) {
  const p = t.project();
  trustProject(p);
  const fresh = opts.fresh ? "fresh_context: true\n" : "";
  p.writeState(
    `---\nmax_iterations: ${ITERATIONS}\ncompletion_promise: NEVER\nstall_limit: 0\n${fresh}---\n\nWrite the summary.\n`,
  );
  const server = await t.server(numberedReplies());
  // The command path's continuations are Stop-hook blocks: with no tool in a turn, Claude Code's block cap
  // (8 by default) would end the loop at 9; a headless loop without the module runs with it off.
  const env: Record<string, string> = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0" };
  if (!opts.module) env.CONTINUATION_LOOP_MODULE = "0";
  const started = Date.now();
  const r = await runClaude({
    version: NEWEST,
    prompt: "start",
    baseUrl: server.url,
    cwd: p.proj,
    home: p.home,
    pluginDirs: [PLUGIN_DIR],
    env,
    timeoutMs: 1_500_000,
  });
  expect(r.code, describeRun(r)).toBe(0);
  const history = p.history();
  expectEveryIterationOnce(history, server.mainRequests, ITERATIONS, opts.fresh);
  expect(p.readState(), "the loop's file is removed at its end").toBeUndefined();
  console.info(
    `soak -p ${opts.module ? "module" : "no module"}${opts.fresh ? " fresh" : ""}: ${ITERATIONS} iterations in ${Date.now() - started} ms, ${r.stdout.length} bytes of stream-json`,
  );
  return r;
}

describe(`Claude Code ${NEWEST.name}: ${ITERATIONS} iterations in -p`, () => {
  it("with the module: every iteration once, in order, past the 1 MiB a buffered caller would cut", async () => {
    const r = await soak({ module: true });
    expect(r.stdout.length).toBeGreaterThan(NODE_MAX_BUFFER);
  });

  it("without the module (the Stop hook's exit 2): every iteration once, in order", async () => {
    await soak({ module: false });
  });

  it("fresh_context with the module: a /clear before each of the 199 continuations, each iteration once", async () => {
    const r = await soak({ module: true, fresh: true });
    expect(r.stdout.length).toBeGreaterThan(NODE_MAX_BUFFER);
  });
});
