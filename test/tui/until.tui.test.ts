// A loop whose `until` command keeps failing, read from the screen as the user sees it (docs/REFERENCE.md
// "What you see while a loop runs"): the first failure reaches Claude in full; after it an iteration takes
// a few rows, with the command's status, and the end of its output only when that output changed.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { lastUserText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS, type ClaudeVersion, REPO_ROOT, NEWEST } from "../e2e/support/runClaude.js";
import { iterationRows } from "./support/screen.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const REPLIES = [
  "Fixed the parser.",
  "Fixed the lexer.",
  "Fixed the printer.",
  "Fixed the loader.",
  "Fixed the cache.",
];
/** The bound the terminal holds an iteration to, after the first, at 140 columns. */
const MOST_ROWS = 14;
interface Route {
  name: string;
  version: ClaudeVersion;
  module: boolean;
}
const ROUTES: Route[] = [
  { name: `${NEWEST.name} with the module`, version: NEWEST, module: true },
  { name: `${NEWEST.name} without the module`, version: NEWEST, module: false },
  ...CLAUDE_VERSIONS.slice(0, -1).map((version) => ({ name: version.name, version, module: false })),
];

/**
 * 30 failing lines and exit 1, as a test run prints them. `changing`: the run's number is in every line,
 * so its output is new at every stop.
 */
const checkScript = (changing: boolean) =>
  [
    "n=$(( $(cat .runs 2>/dev/null || echo 0) + 1 )); echo $n > .runs",
    `for i in $(seq 1 29); do echo "FAIL test/case$i.test.ts > handles input $i${changing ? " (run $n)" : ""}"; done`,
    `echo "Tests 29 failed | 1 passed${changing ? " (run $n)" : ""}"`,
    "exit 1",
    "",
  ].join("\n");

async function runLoop(route: Route, changing: boolean) {
  const s = (scratch = new TuiScratch(changing ? "until-changing" : "until-same"));
  fs.writeFileSync(path.join(s.proj, "check.sh"), checkScript(changing));
  const server = (s.server = await startMessagesServer(REPLIES.map((r) => text(r))));
  // The plugin where a marketplace install puts it: the command path shows the hook's command, path and
  // all, so the path's length counts in the rows an iteration takes.
  const plugin = path.join(s.home, ".claude", "plugins", "cache", "continuation-loop", "continuation-loop", "0.1.0");
  for (const part of ["hooks", ".claude-plugin", ".claude/commands", "templates"])
    fs.cpSync(path.join(REPO_ROOT, part), path.join(plugin, part), { recursive: true });
  const tui = (s.tui = await startTui({
    version: route.version,
    baseUrl: server.url,
    cwd: s.proj,
    home: s.home,
    cols: 140,
    // 2.1.332 draws on the alternate screen, which has no scrollback: every iteration must stay on screen.
    rows: 200,
    pluginDirs: [plugin],
    ...(!route.module && { env: { CONTINUATION_LOOP_MODULE: "0" } }),
  }));
  await tui.submit('/continuation-loop:loop-start --max-iterations 5 --until "sh ./check.sh" Fix the failing tests');
  await tui.waitFor(/continuation-loop: .*max_iterations/, 90_000);
  expect(server.mainRequests).toHaveLength(5);
  const rows = tui.history();
  const block = (n: number) => {
    const found = iterationRows(rows, REPLIES[n]!, REPLIES[n + 1]!);
    expect(found, `iteration ${n + 2}\n${rows.join("\n")}`).toBeDefined();
    return found!;
  };
  // What Claude was sent after each stop.
  const sent = server.mainRequests.slice(1).map((req) => lastUserText(req));
  return { first: block(0), later: [1, 2, 3].map(block), sent, rows };
}

describe.each(ROUTES)("Claude Code $name: an until that keeps failing", (route) => {
  it("the same output: the first failure in full, then a few rows per iteration saying it is the same", async () => {
    const { first, later, sent } = await runLoop(route, false);
    // The first failure reaches Claude whole: the goal, the command, all 30 lines.
    expect(sent[0]).toContain("Fix the failing tests");
    expect(sent[0]).toContain("FAIL test/case1.test.ts > handles input 1\n");
    expect(sent[0]).toContain("Tests 29 failed | 1 passed");
    expect(first.join("\n")).toContain("FAIL test/case1.test.ts");
    for (const [i, rows] of later.entries()) {
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(MOST_ROWS);
      // Read as a person reads it: where the terminal wraps a row (the hook's command is longer on some versions) is not news.
      const said = rows.join(" ").replace(/\s+/g, " ");
      expect(said).toContain(`iteration ${i + 3}/5`);
      expect(said).toContain("same output as last time");
      expect(rows.join("\n")).not.toContain("FAIL test/case");
      expect(sent[i + 1]).toContain("`sh ./check.sh` exited with status 1 again");
    }
  });

  it("an output that changes at every stop: its last lines each time, still a few rows", async () => {
    const { later, sent } = await runLoop(route, true);
    expect(sent[0]).toContain("FAIL test/case1.test.ts > handles input 1 (run 1)\n");
    for (const [i, rows] of later.entries()) {
      const run = i + 2;
      expect(rows.length, rows.join("\n")).toBeLessThanOrEqual(MOST_ROWS);
      // The new run's summary is on screen and reaches Claude; the start of the output does not repeat.
      expect(rows.join("\n")).toContain(`Tests 29 failed | 1 passed (run ${run})`);
      expect(rows.join("\n")).not.toContain("FAIL test/case1.test.ts");
      expect(sent[i + 1]).toContain(`Tests 29 failed | 1 passed (run ${run})`);
      expect(sent[i + 1]).toContain(`FAIL test/case25.test.ts > handles input 25 (run ${run})`);
    }
  });
});
