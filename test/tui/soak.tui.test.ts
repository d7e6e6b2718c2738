// A long loop in the real terminal (docs/HEADLESS.md; `npm run test:soak`, not in `npm test`): on the
// newest Claude Code, 150 iterations with the companion module and 150 without it, each run to its own
// limit with every iteration once and in order, from the history and the scripted API's requests.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { expectEveryIterationOnce, numberedReplies } from "../e2e/soakSupport.js";
import { startMessagesServer } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const ITERATIONS = 150;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

async function soak(module: boolean): Promise<void> {
  const s = (scratch = new TuiScratch(module ? "soak-module" : "soak-hooks"));
  fs.mkdirSync(s.claude(""), { recursive: true });
  fs.writeFileSync(
    s.claude("continuation-loop.local.md"),
    `---\nmax_iterations: ${ITERATIONS}\ncompletion_promise: NEVER\nstall_limit: 0\n---\n\nWrite the summary.\n`,
  );
  const server = (s.server = await startMessagesServer(numberedReplies()));
  // Without the module the continuations are Stop-hook blocks, which the block cap (8 by default) would end.
  const env: Record<string, string> = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0" };
  if (!module) env.CONTINUATION_LOOP_MODULE = "0";
  const tui = (s.tui = await startTui({
    version: NEWEST,
    baseUrl: server.url,
    cwd: s.proj,
    home: s.home,
    env,
    timeoutMs: 1_700_000,
  }));
  const started = Date.now();
  await tui.submit("start");
  await until(() => s.history().some((h) => h.decision === "end"), "the loop's end", 1_600_000);
  expectEveryIterationOnce(s.history(), server.mainRequests, ITERATIONS);
  // Nothing after the end: the session sits at its prompt.
  await tui.waitFor(/❯/, 30_000);
  expect(server.mainRequests).toHaveLength(ITERATIONS);
  console.info(
    `soak terminal ${module ? "module" : "no module"}: ${ITERATIONS} iterations in ${Date.now() - started} ms`,
  );
}

describe(`Claude Code ${NEWEST.name}: ${ITERATIONS} iterations in the terminal`, () => {
  it("with the module: every iteration once, in order, ended by max_iterations", async () => {
    await soak(true);
  });

  it("without the module (the Stop hook's exit 2): every iteration once, in order, ended by max_iterations", async () => {
    await soak(false);
  });
});
