// The slash commands through the real Claude Code CLI with the plugin loaded by --plugin-dir
// (offline, scripted model): /loop-start with hostile text, refusals, /loop-status, /loop-stop.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { HISTORY, LOOP_MARKER, Scratch, STATE } from "./loopSupport.js";
import { text } from "./support/messagesServer.js";
import { lastUserText, systemMessagesText } from "./support/requestText.js";
import type { MessagesServer } from "./support/messagesServer.js";
import {
  CLAUDE_VERSIONS,
  describeRun,
  hookSystemMessages,
  readJsonl,
  REPO_ROOT,
  runClaude,
} from "./support/runClaude.js";

let scratch: Scratch | undefined;
const setup = () => (scratch = new Scratch());

afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  describe("slash commands through the plugin (--plugin-dir)", () => {
    it("/continuation-loop:loop-start with hostile text: goal byte for byte, exactly two turns, nothing executed", async () => {
      const { proj, home } = setup();
      const server = scratch!.server.bind(scratch);
      const goal = `Fix "the" parser; don't run $(touch ${proj}/pwned-subst) or \`touch ${proj}/pwned-tick\`; touch ${proj}/pwned-semi !\`touch ${proj}/pwned-bang\` — ünïcode ✓`;
      let stateAtFirstTurn: string | undefined;
      const s = await server((_req, index) => {
        if (index === 0) stateAtFirstTurn = fs.readFileSync(path.join(proj, STATE), "utf8");
        return [text("Working on it."), text("Still working.")][index];
      });
      const sessionId = randomUUID();
      const r = await runClaude({
        version,
        prompt: `/continuation-loop:loop-start --max-iterations 2 --completion-promise "it's done" ${goal}`,
        baseUrl: s.url,
        cwd: proj,
        home,
        pluginDirs: [REPO_ROOT],
        sessionId,
      });

      expect(r.code, describeRun(r)).toBe(0);
      expect(s.exhausted).toBe(false);
      expect(s.mainRequests).toHaveLength(2);
      // The loop existed before the first model turn, bound to this session, with the goal verbatim.
      expect(stateAtFirstTurn).toBeDefined();
      const state = parseState(stateAtFirstTurn!);
      expect(state.body).toBe(`${goal}\n`);
      expect(state).toMatchObject({
        max_iterations: 2,
        completion_promise: ["it's done"],
        session_id: sessionId,
        iteration_count: 1,
      });
      expect(Number.isNaN(Date.parse(state.started_at ?? ""))).toBe(false);
      // Claude was told to begin, with the goal, the promise and the limits.
      const startContext = systemMessagesText(s.mainRequests[0]!);
      expect(startContext).toContain("[continuation-loop] The user started a continuation loop");
      expect(startContext).toContain(goal);
      expect(startContext).toContain('end your reply with "it\'s done"');
      expect(startContext).toContain("iterations 1/2 (1 left)");
      // Turn 2 is the Stop hook's continuation; then max_iterations ends the loop.
      expect(lastUserText(s.mainRequests[1]!)).toContain(LOOP_MARKER);
      expect(lastUserText(s.mainRequests[1]!)).toContain(goal);
      expect(fs.existsSync(path.join(proj, STATE))).toBe(false);
      const end = readJsonl(path.join(proj, HISTORY)).at(-1);
      expect(end).toMatchObject({
        decision: "end",
        reason: "max_iterations",
        iteration: 2,
        goal: `${goal}\n`,
        session: sessionId,
      });
      expect(hookSystemMessages(r.transcriptPath).join("\n")).toContain(
        "loop started in .claude/continuation-loop.local.md",
      );
      // Nothing the user typed ran in a shell.
      expect(fs.readdirSync(proj).filter((f) => f.startsWith("pwned"))).toEqual([]);
    });

    it("refuses bad arguments before the model sees anything", async () => {
      const { proj, home } = setup();
      const server = scratch!.server.bind(scratch);
      const s = await server([text("should not be asked")]);
      const r = await runClaude({
        version,
        prompt: "/continuation-loop:loop-start --max-iterations lots Go",
        baseUrl: s.url,
        cwd: proj,
        home,
        pluginDirs: [REPO_ROOT],
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(s.mainRequests).toHaveLength(0);
      expect(String(r.result?.result)).toContain(
        "--max-iterations: invalid value. Expected a whole number from 1 to 10000",
      );
      expect(fs.existsSync(path.join(proj, STATE))).toBe(false);
      // A flag the terminal's helper takes and /loop-report does not: one line naming the helper's command.
      const flag = await runClaude({
        version,
        prompt: "/continuation-loop:loop-report --html page.html",
        baseUrl: s.url,
        cwd: proj,
        home,
        pluginDirs: [REPO_ROOT],
      });
      expect(flag.code, describeRun(flag)).toBe(0);
      expect(s.mainRequests).toHaveLength(0);
      expect(String(flag.result?.result)).toContain("/continuation-loop:loop-report: --html: for a terminal only");
      expect(String(flag.result?.result)).toMatch(/cli\.js report --html FILE/);
      expect(fs.existsSync(path.join(proj, "page.html"))).toBe(false);
    });

    it("/loop-status reaches the model and /loop-stop ends a running loop from other sessions", async () => {
      const { proj, home } = setup();
      const server = scratch!.server.bind(scratch);
      const owner = randomUUID();
      const common = { cwd: proj, home, pluginDirs: [REPO_ROOT] };
      const side: Record<string, { run: Awaited<ReturnType<typeof runClaude>>; server: MessagesServer }> = {};
      const runSide = async (name: string, prompt: string): Promise<void> => {
        const s = await server([text(`${name} reply`)]);
        side[name] = { run: await runClaude({ version, ...common, prompt, baseUrl: s.url }), server: s };
      };
      // While the owner's loop runs, other sessions inspect it, try to replace it, and stop it.
      const s = await server(async (_req, index) => {
        if (index === 1) {
          await runSide("status", "/continuation-loop:loop-status --name default");
          await runSide("restart", "/continuation-loop:loop-start --name default Another goal");
        }
        if (index === 2) await runSide("stop", "/continuation-loop:loop-stop --name default");
        return text(`turn ${index + 1}`);
      });
      const r = await runClaude({
        version,
        ...common,
        prompt: "/continuation-loop:loop-start --max-iterations 5 --max-tokens 100000 Write the report",
        baseUrl: s.url,
        sessionId: owner,
      });
      expect(r.code, describeRun(r)).toBe(0);

      // The status is answered by the hook itself: shown to the user, no model turn.
      const status = side.status!;
      expect(status.server.mainRequests).toHaveLength(0);
      const shown = String(status.run.result?.result);
      expect(shown).toContain("loop running, iteration 2/5");
      expect(shown).toContain("iterations 2/5 (3 left)");
      expect(shown).toMatch(/output tokens \d+ of 100,000/);
      expect(shown).toContain(`session ${owner.slice(0, 8)}'s, not this one's`);
      expect(shown).toContain("last: #1 continued");

      // A running loop is not replaced silently: the prompt was blocked, the model never asked.
      const restart = side.restart!;
      expect(restart.server.mainRequests).toHaveLength(0);
      expect(String(restart.run.result?.result)).toContain(
        `a loop is already running (iteration 2/5, session ${owner})`,
      );

      // /loop-stop removed the loop: the owner's third turn was its last (not five).
      expect(side.stop!.server.mainRequests).toHaveLength(0);
      expect(String(side.stop!.run.result?.result)).toContain("loop stopped by the user at iteration 3/5");
      expect(s.mainRequests).toHaveLength(3);
      expect(fs.existsSync(path.join(proj, STATE))).toBe(false);
      expect(readJsonl(path.join(proj, HISTORY)).at(-1)).toMatchObject({
        decision: "end",
        reason: "stopped",
        iteration: 3,
        goal: "Write the report\n",
        session: owner,
      });
    });
  });
});
