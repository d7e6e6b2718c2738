// fresh_context (docs/REFERENCE.md "Fresh context"): the field, the stand-alone prompt, the line the module reads,
// the refusals where the module is not live, and the spend carried over a clear.
import { describe, expect, it } from "vitest";
import { checkFreshContext, decideFresh, refuseFreshWithoutModule } from "../../src/app/freshContext.js";
import { renderContinuationAnswer } from "../../src/app/moduleBridge.js";
import { parseChecklist } from "../../src/core/checklist.js";
import type { StopDecision } from "../../src/core/decideStop.js";
import { LoopError } from "../../src/core/errors.js";
import { LOOP_MARKER } from "../../src/core/protocol.js";
import { parseStartArgs } from "../../src/core/parseStartArgs.js";
import { parseState } from "../../src/core/parseState.js";
import { renderContinuation } from "../../src/core/renderStop.js";
import { renderStartContext, renderStartUsage } from "../../src/core/renderStart.js";
import { readLoopSpend } from "../../src/core/sidecar.js";
import { carryCostOverClear, makeRuntime, recordCostFigure } from "../../src/core/sidecar.js";
import { readContinuation } from "../../src/module/continuation.js";
import { readFreshPrompt } from "../../src/module/fresh.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const GOAL = "Port the parser to the new grammar.";
const LIVE = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.331", CLAUDECODE: "1" };
const OFF = { CLAUDECODE: "1" };

const stateOf = (front: string) => parseState(`---\n${front}\n---\n\n${GOAL}\n`, "loop.md");
const continueAt = (next: number): Extract<StopDecision, { kind: "continue" }> =>
  ({ kind: "continue", iteration: next - 1, next, runtime: { ...makeRuntime() } }) as Extract<
    StopDecision,
    { kind: "continue" }
  >;

describe("the fresh_context field", () => {
  it("is false by default, true when set, and a wrong value names the field and what it expects", () => {
    expect(stateOf("max_iterations: 3").fresh_context).toBe(false);
    expect(stateOf("fresh_context: true").fresh_context).toBe(true);
    const bad = () => stateOf("fresh_context: sometimes");
    expect(bad).toThrow(LoopError);
    try {
      bad();
    } catch (error) {
      expect((error as LoopError).describe()).toMatch(/fresh_context.*true or false \(e\.g\. fresh_context: true\)/);
    }
  });

  it("is the /loop-start flag --fresh-context, listed by --help", () => {
    expect(parseStartArgs("--fresh-context --max-iterations 4 Go on").fields).toEqual({
      fresh_context: true,
      max_iterations: 4,
    });
    expect(parseStartArgs("--fresh-context=false Go on").fields).toEqual({ fresh_context: false });
    expect(renderStartUsage()).toMatch(/--fresh-context\[=false\] +clear the context before each continuation/);
  });
});

describe("the prompt sent into a cleared context", () => {
  const front = [
    "max_iterations: 8",
    "max_duration: 2h",
    "max_cost: 5",
    'completion_promise: "ALL PORTED"',
    "notes_file: NOTES.md",
    "checklist: PLAN.md",
    'metric: "npm run -s score"',
    'metric_target: ">= 90"',
    "fresh_context: true",
    "started_at: 2026-03-01T11:00:00Z",
  ].join("\n");
  const checklist = parseChecklist("- [x] lexer\n- [ ] grammar rules\n- [ ] error messages\n");
  const notes = { path: "NOTES.md", text: "Lexer done; grammar next. The old tests live in test/old." };
  const prompt = renderContinuation(stateOf(front), continueAt(3), NOW, { notes, checklist, fresh: true });

  it("stands alone: the goal, the notes as they stand, the checklist, the metric, every limit, finishing and pausing", () => {
    expect(prompt.startsWith(LOOP_MARKER)).toBe(true);
    expect(prompt).toContain("iteration 3/8");
    expect(prompt).toContain("cleared");
    expect(prompt).toContain(GOAL);
    expect(prompt).toContain(notes.text);
    expect(prompt).toMatch(/NOTES\.md.*memory/);
    expect(prompt).toContain("1/3 done · next: grammar rules");
    expect(prompt).toContain("npm run -s score");
    expect(prompt).toMatch(/iterations 3\/8 \(5 left\) · time 1h of 2h \(1h left\) · cost/);
    expect(prompt).toContain('"ALL PORTED"');
    expect(prompt).toContain("<loop-pause>");
    // Nothing points back at messages the cleared context no longer holds.
    expect(prompt).not.toMatch(/\babove\b|\bearlier message|\bas before\b/i);
  });

  it("asks Claude to keep the notes file current for the next iteration", () => {
    expect(prompt).toMatch(/Before you end this reply, update it/);
  });

  it("without a notes file, points at the project's files as the memory", () => {
    const plain = renderContinuation(stateOf("fresh_context: true"), continueAt(2), NOW, { fresh: true });
    expect(plain).toContain("the project's files");
    expect(plain).toContain(GOAL);
    expect(plain).not.toMatch(/\babove\b/);
  });

  it("differs from the prompt into a kept context only where the context matters", () => {
    const kept = renderContinuation(stateOf(front), continueAt(3), NOW, { notes, checklist });
    expect(kept).not.toContain("cleared");
    expect(kept).toContain(GOAL);
  });

  it("the start tells Claude where to keep what the next iteration needs", () => {
    expect(renderStartContext(stateOf("fresh_context: true\nnotes_file: NOTES.md"), "loop.md", NOW)).toContain(
      "cleared context",
    );
    expect(renderStartContext(stateOf("max_iterations: 3"), "loop.md", NOW)).not.toContain("cleared");
  });
});

describe("the line the module reads", () => {
  const id = "m3k9x-1-abc123";
  const env = { ...LIVE, CONTINUATION_LOOP_STOP_ID: id };
  /** The context entry the Stop hook hands the module, as Claude Code passes it on. */
  const context = (prompt: string, fresh?: boolean) => {
    const answer = renderContinuationAnswer(prompt, env, fresh);
    return (answer.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  };

  it("asks for a clear, and the module gets the prompt back byte for byte", () => {
    const prompt = `${LOOP_MARKER}\n\nGoal:\n${GOAL}\n`;
    const text = readContinuation(context(prompt, true), id);
    expect(text).toBeDefined();
    expect(readFreshPrompt(text!)).toBe(prompt);
  });

  it("is absent from an ordinary continuation and when the module handed no id", () => {
    const prompt = `${LOOP_MARKER}\n\nGoal:\n${GOAL}\n`;
    expect(readFreshPrompt(readContinuation(context(prompt), id)!)).toBeUndefined();
    expect(renderContinuationAnswer(prompt, LIVE, true)).toMatchObject({ exitCode: 2, stderr: prompt });
  });
});

describe("where the module is not live", () => {
  const fresh = stateOf("fresh_context: true");

  it("/loop-start inside Claude Code refuses the flag; with the module live, or outside Claude Code, it is taken", () => {
    expect(() => refuseFreshWithoutModule(fresh, OFF, "loop.md", false)).toThrow(
      /needs the companion module, which is not live/,
    );
    expect(() => refuseFreshWithoutModule(fresh, LIVE, "loop.md", false)).not.toThrow();
    expect(() => refuseFreshWithoutModule(fresh, {}, "loop.md", false)).not.toThrow();
    expect(() => refuseFreshWithoutModule(stateOf("max_iterations: 3"), OFF, "loop.md", false)).not.toThrow();
  });

  it("on the install route /loop-start refuses the flag, in a session or from a terminal, naming the route", () => {
    for (const env of [OFF, {}])
      expect(() => refuseFreshWithoutModule(fresh, env, "loop.md", true)).toThrow(
        "needs the companion module, which loads with the plugin route only (claude --plugin-dir or the marketplace), not with the hooks continuation-loop install copied into this project",
      );
    expect(() => refuseFreshWithoutModule(stateOf("max_iterations: 3"), {}, "loop.md", true)).not.toThrow();
  });

  it("the Stop tells once and keeps the context; with the module live the continuation is fresh", () => {
    const first = decideFresh(fresh, { ...makeRuntime() }, OFF, () => false);
    expect(first.fresh).toBe(false);
    expect(first.notice).toMatch(/^continuation-loop: fresh_context needs the companion module.*current context\.$/);
    expect(first.notice).not.toContain("\n");
    const second = decideFresh(fresh, first.runtime, OFF, () => false);
    expect(second).toMatchObject({ fresh: false });
    expect(second.notice).toBeUndefined();
    expect(decideFresh(fresh, { ...makeRuntime() }, LIVE, () => false)).toMatchObject({ fresh: true });
    expect(decideFresh(stateOf("max_iterations: 3"), { ...makeRuntime() }, OFF, () => false)).toMatchObject({
      fresh: false,
    });
  });

  it("doctor says why", () => {
    const cli = "node /opt/continuation-loop/hooks/cli.js";
    expect(checkFreshContext(fresh, OFF, cli, false)).toEqual([
      { level: "warn", text: expect.stringMatching(/companion module.*2\.1\.287.*keeps one context/) },
    ]);
    // Outside Claude Code it names the helper by its path: npx works only once the package is published.
    expect(checkFreshContext(fresh, {}, cli, false)[0]?.text).toContain(`!${cli} doctor`);
    expect(checkFreshContext(fresh, LIVE, cli, false)[0]?.level).toBe("ok");
    expect(checkFreshContext(stateOf("max_iterations: 3"), OFF, cli, false)).toEqual([]);
    for (const env of [OFF, {}]) {
      const [line] = checkFreshContext(fresh, env, cli, true);
      expect(line?.text).toContain("plugin route only");
      expect(line?.text).not.toMatch(/2\.1\.287|safe-mode/);
    }
  });
});

describe("the spend over a clear", () => {
  it("carries what was spent, and counts the next session's figure from zero even when it is higher", () => {
    let runtime = recordCostFigure({ ...makeRuntime() }, 0.1, "module");
    runtime = recordCostFigure(runtime, 0.3, "module");
    runtime = carryCostOverClear(runtime);
    expect(readLoopSpend(runtime)).toBeCloseTo(0.2, 12);
    runtime = recordCostFigure(runtime, 0.45, "module");
    expect(readLoopSpend(runtime)).toBeCloseTo(0.65, 12);
  });

  it("leaves a loop with no figure yet as it is", () => {
    expect(carryCostOverClear({ ...makeRuntime() })).toEqual(makeRuntime());
  });
});
