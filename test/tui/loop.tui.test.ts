// A loop started from the interactive UI, read from the screen as the user sees it: a few rows per
// ordinary iteration, the goal always in the model's context, an edited goal at the next stop, and
// one line and a bell at the end (test/tui/TERMINAL.md).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { allMessagesText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS, REPO_ROOT } from "../e2e/support/runClaude.js";
import { iterationRows } from "./support/screen.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const REPLIES = ["Drafted the summary.", "Tightened the wording.", "Checked the facts.", "Translated it.", "ALL DONE"];

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("shows an ordinary iteration in a few rows while the model keeps the goal, then ends in one line and a bell", async () => {
    const s = (scratch = new TuiScratch("loop"));
    const { proj, home } = s;
    const stateFile = path.join(proj, ".claude", "continuation-loop.local.md");
    const server = (s.server = await startMessagesServer((_req, i) => {
      // While the model writes its fourth reply, the user edits the goal in the state file.
      if (i === 3) {
        const before = fs.readFileSync(stateFile, "utf8");
        fs.writeFileSync(stateFile, before.replace("Write the summary", "Write the summary in French"));
      }
      const reply = REPLIES[i];
      return reply === undefined ? undefined : text(reply);
    }));
    // The plugin where a marketplace install puts it: 2.1.330 shows the hook's command, path and all,
    // before the text, so the path's length counts in the rows an iteration takes.
    const plugin = path.join(home, ".claude", "plugins", "cache", "continuation-loop", "continuation-loop", "0.1.0");
    for (const part of ["hooks", ".claude-plugin", ".claude/commands", "templates"])
      fs.cpSync(path.join(REPO_ROOT, part), path.join(plugin, part), { recursive: true });
    // 100 rows: 2.1.330 has no scrollback, and the first reply must still be on screen at the end.
    const tui = (s.tui = await startTui({
      version,
      baseUrl: server.url,
      cwd: proj,
      home,
      rows: 100,
      pluginDirs: [plugin],
    }));

    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 6 --completion-promise "ALL DONE" Write the summary',
    );
    await tui.waitFor((s) => s.includes(REPLIES[2]!), 60_000);
    const bellsBefore = tui.bells();
    // The plugin's end message (it starts with its name) tells the user why the loop ended.
    const end = await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);

    expect(server.mainRequests).toHaveLength(5);
    expect(server.exhausted).toBe(false);
    expect(fs.existsSync(stateFile)).toBe(false);

    // The model has the goal at every iteration, and the edited goal from the stop after the edit.
    server.mainRequests.forEach((req, i) => {
      expect(allMessagesText(req), `request ${i + 1}`).toContain("Write the summary");
      expect(allMessagesText(req).includes("in French"), `request ${i + 1}`).toBe(i === 4);
    });

    const rows = tui.history();
    const block = (n: number) => {
      const found = iterationRows(rows, REPLIES[n]!, REPLIES[n + 1]!);
      expect(found, `iteration ${n + 2}\n${rows.join("\n")}`).toBeDefined();
      return found!;
    };
    const first = block(0); // first continuation: the whole prompt
    const ordinary = [block(1), block(2)];
    const edited = block(3); // the goal changed: the whole prompt again, with the new goal
    expect(first.join("\n")).toContain("Write the summary");
    expect(edited.join("\n")).toContain("Write the summary in French");
    for (const rowsOfIteration of ordinary) {
      // Our text: from the marker to its last phrase, at most three rows (two at 120 columns); around
      // it Claude Code's own rows, which on 2.1.330 include the hook's command with its full path.
      const from = rowsOfIteration.findIndex((row) => row.includes(MARKER));
      const to = rowsOfIteration.findIndex((row) => row.includes("only when it is true."));
      expect(from, rowsOfIteration.join("\n")).toBeGreaterThanOrEqual(0);
      expect(to - from + 1, rowsOfIteration.join("\n")).toBeLessThanOrEqual(3);
      expect(rowsOfIteration.length * 2, rowsOfIteration.join("\n")).toBeLessThan(first.length);
    }

    // One line (wrapped to at most two rows) with reason, iterations, elapsed time and tokens.
    const endRows = end.split("\n");
    const at = endRows.findIndex((row) => /continuation-loop: .*completed/.test(row));
    expect(`${endRows[at]} ${endRows[at + 1]}`).toMatch(/5\/6.*\d+s.*tokens/);
    // The end rings the terminal once (notify is on by default); the iterations before it did not.
    expect(bellsBefore).toBe(0);
    expect(tui.bells()).toBe(1);
  });
});
