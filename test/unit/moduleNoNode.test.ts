// The companion module without a usable `node` on PATH (docs/REFERENCE.md "No Node, or an old one"), against a
// stand-in for Claude Code's `$`: the loop controls answer with the one line, end no turn, and start node
// once at most; the band's reads (test/unit/moduleView.test.ts) likewise.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import type { Engine } from "../../src/module/engine.js";

/** What Claude Code 2.1.332's `$.process.run` throws for a program that is not on PATH (measured). */
const NOT_FOUND =
  'continuation-loop: $.process.run(node) failed to start: ENOENT: Executable not found in $PATH: "node"';
/** The line as the module shows it: Claude Code puts the plugin's name before a module's answer. */
const shown = (line: string) => line.replace(/^continuation-loop: /, "");

describe("the loop controls without a usable node", () => {
  let runs: number;
  let aborted: string[];
  let logged: string[];
  let run: () => Promise<{ exitCode: number; stdout: string; stderr: string }>;
  let controls: typeof import("../../src/module/controls.js");
  let state: typeof import("../../src/module/state.js");

  const $ = {
    plugin: { root: "/plugin" },
    process: {
      run: () => {
        runs++;
        return run();
      },
    },
    session: { id: async () => "s1", info: async () => ({ transcriptPath: "/t/s1.jsonl" }) },
    turn: {
      abort: async ({ turnId }: { turnId: string }) => {
        aborted.push(turnId);
      },
    },
    ui: { log: (text: string) => logged.push(text) },
  } as unknown as Engine;

  beforeEach(async () => {
    vi.resetModules();
    controls = await import("../../src/module/controls.js");
    state = await import("../../src/module/state.js");
    Object.assign(state.mod, { ready: true, root: "/p", version: "2.1.332" });
    runs = 0;
    aborted = [];
    logged = [];
  });

  it("no node on PATH: /loop-stop mid-turn logs the line and the turn goes on; later commands answer it without starting node", async () => {
    run = async () => {
      throw new Error(NOT_FOUND);
    };
    state.mod.turnId = "turn-1";
    expect(await controls.answerControl($, "loop-stop", "")).toEqual({});
    expect(logged).toEqual([shown(renderNodeNeeded())]);
    expect(aborted).toEqual([]);
    state.mod.turnId = undefined;
    expect(await controls.answerControl($, "loop-status", "--all")).toEqual({
      text: shown(renderNodeNeeded()),
      isTextDisplayOnly: true,
    });
    expect(await controls.answerControl($, "loop-pause", "")).toMatchObject({ text: shown(renderNodeNeeded()) });
    expect(runs).toBe(1);
  });

  it("a node too old: the prompt hook's line, no turn ended, and node not started again", async () => {
    const line = renderNodeNeeded("18.19.0");
    run = async () => ({ exitCode: 0, stdout: JSON.stringify({ decision: "block", reason: line }), stderr: "" });
    state.mod.turnId = "turn-2";
    expect(await controls.answerControl($, "loop-pause", "")).toEqual({});
    expect(logged).toEqual([shown(line)]);
    expect(aborted).toEqual([]);
    expect(await controls.answerControl($, "loop-stop", "")).toEqual({});
    expect(runs).toBe(1);
  });

  it("a run that fails otherwise (a timeout) is no verdict on node: the error stands, and the next command runs node again", async () => {
    run = async () => {
      throw new Error("continuation-loop: $.process.run(node) timed out after 15000 ms");
    };
    await expect(controls.answerControl($, "loop-stop", "")).rejects.toThrow(/timed out/);
    await expect(controls.answerControl($, "loop-stop", "")).rejects.toThrow(/timed out/);
    expect(runs).toBe(2);
    expect(state.mod.nodeProblem).toBeUndefined();
  });
});
