// The Stop-hook loop through the real Claude Code CLI, with the repo loaded by --plugin-dir.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type RecordedRequest, type Script, text } from "./support/messagesServer.js";
import { lastUserText, allMessagesText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, type LoopProject } from "./support/loopProject.js";
import { CLAUDE_VERSIONS, describeRun, hookSystemMessages, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { itOnNewest } from "./support/pins.js";

const t = perTest();

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  async function run(p: LoopProject, prompt: string, script: Script, sessionId = randomUUID()) {
    const server = await t.server(script);
    const r = await runClaude({
      version,
      prompt,
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId,
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
    return { r, main: server.mainRequests, sessionId };
  }

  const continuation = (req: RecordedRequest | undefined) => (req ? lastUserText(req) : "");

  describe("the continuation loop in Claude Code", () => {
    it("continues with the marker and the goal, and stops at the reply carrying the promise in another case", async () => {
      const p = t.project();
      p.writeState(
        '---\nmax_iterations: 10\ncompletion_promise: "All tests passing"\n---\n\nFix the failing tests in test/auth.test.ts.\n',
      );
      const { r, main, sessionId } = await run(p, "start", [
        text("working on it", { output_tokens: 11 }),
        text("still fixing", { output_tokens: 22 }),
        text("Done: ALL TESTS PASSING.", { output_tokens: 33 }),
        text("never sent"),
      ]);

      expect(main).toHaveLength(3);
      for (const [i, req] of main.slice(1).entries()) {
        const sent = continuation(req);
        expect(sent).toContain(LOOP_MARKER);
        expect(sent).toContain(`iteration ${i + 2}/10`);
        expect(sent).toContain('"All tests passing"');
        // The full prompt once, then a one-line reminder; the goal stays in the model's context.
        if (i === 0) expect(sent).toContain("Fix the failing tests in test/auth.test.ts.");
        else expect(sent.split("\n").filter((line) => line.includes(LOOP_MARKER))).toHaveLength(1);
        expect(allMessagesText(req)).toContain("Fix the failing tests in test/auth.test.ts.");
      }
      expect(p.readState()).toBeUndefined();
      const history = p.history();
      expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
      // The transcript lags the hook by ~50 ms (more under load): a stop may count a turn late, never twice or never.
      const tokens = history.map((h) => Number(h.output_tokens));
      expect(tokens.at(-1)).toBe(66);
      expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
      expect(history.at(-1)).toMatchObject({
        reason: "completed",
        iteration: 3,
        session: sessionId,
        goal: "\nFix the failing tests in test/auth.test.ts.\n",
      });
      expect(hookSystemMessages(r.transcriptPath, "Stop").join("\n")).toMatch(
        /loop completed \(promise "All tests passing" seen\) after 3\/10 iterations/,
      );
    });

    itOnNewest(version)("stops exactly at max_iterations", async () => {
      const p = t.project();
      p.writeState("---\nmax_iterations: 3\n---\nKeep going.\n");
      const { r, main, sessionId } = await run(p, "go", [
        text("one"),
        text("two"),
        text("three"),
        text("four"),
        text("five"),
      ]);
      expect(main).toHaveLength(3);
      expect(p.readState()).toBeUndefined();
      expect(p.history().at(-1)).toMatchObject({
        decision: "end",
        reason: "max_iterations",
        iteration: 3,
        session: sessionId,
      });
      expect(hookSystemMessages(r.transcriptPath, "Stop").join("\n")).toContain(
        "reached max_iterations after 3/3 iterations",
      );
    });

    itOnNewest(version)("leaves a malformed file untouched, does not continue, and says what is wrong", async () => {
      const p = t.project();
      const text0 = "---\nmax_iterations: many   # oops\ncompletion_promise: DONE\n---\nGoal\n";
      p.writeState(text0);
      const { r, main } = await run(p, "go", [text("one"), text("two")]);
      expect(main).toHaveLength(1);
      expect(p.readState()).toBe(text0);
      const told = hookSystemMessages(r.transcriptPath, "Stop").join("\n");
      expect(told).toContain(".claude/continuation-loop.local.md line 2: max_iterations");
      expect(told).toContain("a whole number from 1 to 10000");
    });

    itOnNewest(version)(
      "tells once of a key that reads like a field and is none, and runs the loop by its fields",
      async () => {
        const p = t.project();
        p.writeState("---\nmax_iterations: 3\nmax_iteraton: 2   # meant as a limit\n---\nKeep going.\n");
        const { r, main } = await run(p, "go", [text("one"), text("two"), text("three"), text("four")]);
        expect(main).toHaveLength(3);
        expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 3 });
        const told = hookSystemMessages(r.transcriptPath, "Stop").filter((m) => m.includes("max_iteraton"));
        expect(told).toHaveLength(1);
        expect(told[0]).toContain(".claude/continuation-loop.local.md line 3: max_iteraton is not a field");
        expect(told[0]).toContain("max_iterations");
      },
    );

    it("ignores a state file owned by another session", async () => {
      const p = t.project();
      const text0 = `---\nsession_id: ${randomUUID()}\nmax_iterations: 5\n---\nSomeone else's goal\n`;
      p.writeState(text0);
      const { main } = await run(p, "go", [text("one"), text("two")]);
      expect(main).toHaveLength(1);
      expect(p.readState()).toBe(text0);
      expect(p.history()).toEqual([]);
    });

    it("is not completed by the promise in the user prompt or in the continuation prompt", async () => {
      const p = t.project();
      p.writeState('---\nmax_iterations: 3\ncompletion_promise: "SHIP IT NOW"\n---\nWhen done, say SHIP IT NOW.\n');
      const { main } = await run(p, 'Work, then say "SHIP IT NOW" when finished.', [
        text("not yet"),
        text("still not"),
        text("nope"),
        text("extra"),
      ]);
      expect(main).toHaveLength(3);
      expect(continuation(main[1])).toContain("SHIP IT NOW");
      expect(p.history().at(-1)).toMatchObject({ reason: "max_iterations" });
    });

    itOnNewest(version)(
      "follows edits made to the state file between turns: a lowered limit and a changed goal",
      async () => {
        const p = t.project();
        p.writeState("---\nmax_iterations: 10\n---\nOriginal goal\n");
        const replies = ["turn one", "turn two", "turn three", "turn four", "turn five"];
        const { main } = await run(p, "go", (_req, index) => {
          // Before answering turn 2, the user edits the running loop's file.
          if (index === 1) {
            const now = p.readState()!;
            p.writeState(
              now.replace("max_iterations: 10", "max_iterations: 3").replace("Original goal", "Edited goal"),
            );
          }
          return text(replies[index] ?? "x");
        });
        expect(continuation(main[1])).toContain("Original goal");
        expect(continuation(main[2])).toContain("Edited goal");
        expect(continuation(main[2])).toContain("iteration 3/3");
        expect(main).toHaveLength(3);
        expect(p.history().at(-1)).toMatchObject({ reason: "max_iterations", iteration: 3, goal: "Edited goal\n" });
      },
    );

    itOnNewest(version)(
      "stops going on when the goal is deleted mid-loop, leaves the file as edited, and says where",
      async () => {
        const p = t.project();
        p.writeState("---\nmax_iterations: 10\n---\nOriginal goal\n");
        let emptied = "";
        const { r, main } = await run(p, "go", (_req, index) => {
          // Before answering turn 2, the user deletes the goal of the running loop.
          if (index === 1) {
            emptied = p.readState()!.replace("Original goal\n", "\n");
            p.writeState(emptied);
          }
          return text(`turn ${index + 1}`);
        });
        expect(continuation(main[1])).toContain("Original goal");
        expect(main).toHaveLength(2);
        expect(p.readState()).toBe(emptied);
        const told = hookSystemMessages(r.transcriptPath, "Stop").join("\n");
        const closing = emptied.split("\n").lastIndexOf("---") + 1;
        expect(told).toContain(
          `.claude/continuation-loop.local.md line ${closing}: goal: nothing is written below the closing ---`,
        );
      },
    );
  });
});
