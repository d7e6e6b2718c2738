// Plan mode (docs/REFERENCE.md "Plan mode"; src/core/decideStop.ts, src/core/planMode.ts): a Stop whose input says
// the session is in plan mode, where Claude cannot edit, does not continue the loop: the turn ends uncounted, the
// first such Stop starts the wait, and the first Stop outside plan mode goes on. Completion and the limits still
// come first; status says why the loop waits.
import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import { decideStop, type StopFacts } from "../../src/core/decideStop.js";
import { parseState } from "../../src/core/parseState.js";
import { renderPlanHold } from "../../src/core/planMode.js";
import { renderPermissionNote } from "../../src/core/renderBackground.js";
import { renderStatus } from "../../src/core/renderStatus.js";
import { makeRuntime, readSidecarView, type Runtime } from "../../src/core/sidecar.js";
import { renderBand } from "../../src/module/band.js";
import { renderSidecarFor } from "../support/loopSidecar.js";

/** The loop as the module shows it from the sidecar the hooks save for these texts. */
function readLoopView(name: string, state: string, sidecar: string) {
  const read = readSidecarView(renderSidecarFor(state, sidecar));
  return read && { ...read.view, name };
}

const NOW = Date.parse("2026-03-01T12:00:00Z");
const loop = (front = "") =>
  parseState(`---\nsession_id: s1\nmax_iterations: 10\ncompletion_promise: DONE\n${front}\n---\nGoal\n`);

function decide(reply: string, facts: StopFacts, runtime: Runtime = makeRuntime(), front = "", now = NOW) {
  const state = loop(front);
  return decideStop(state, runtime, assessReply(state, runtime, reply), facts, now);
}

describe("a Stop in plan mode", () => {
  it("waits instead of continuing: not counted, the wait's start kept, started once", () => {
    const first = decide("Here is the plan.", { permissionMode: "plan" });
    expect(first).toMatchObject({ kind: "plan", iteration: 1, started: true });
    expect(first.runtime.plan_hold).toBe("2026-03-01T12:00:00.000Z");

    const again = decide("A better plan.", { permissionMode: "plan" }, first.runtime, "", NOW + 60_000);
    expect(again).toMatchObject({ kind: "plan", started: false });
    expect(again.runtime.plan_hold).toBe("2026-03-01T12:00:00.000Z");
  });

  it("is no stall: the same reply in plan mode again and again never ends the loop", () => {
    let runtime = makeRuntime();
    for (let i = 0; i < 6; i++) {
      const d = decide("Same plan.", { permissionMode: "plan", treeState: "" }, runtime);
      expect(d.kind).toBe("plan");
      runtime = d.runtime;
    }
    expect(runtime.stall_count).toBe(0);
  });

  it("goes on at the first Stop outside plan mode, the wait cleared", () => {
    const held = decide("Here is the plan.", { permissionMode: "plan" });
    for (const mode of ["default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", undefined]) {
      const d = decide("Made the change.", mode ? { permissionMode: mode } : {}, held.runtime);
      expect(d, String(mode)).toMatchObject({ kind: "continue", next: 2 });
      expect(d.runtime.plan_hold).toBe("");
    }
  });

  it("lets completion and the limits come first", () => {
    expect(decide("Nothing left. DONE", { permissionMode: "plan" })).toMatchObject({
      kind: "end",
      reason: "completed",
    });
    const last = decide("Planned.", { permissionMode: "plan" }, makeRuntime(), "iteration_count: 10");
    expect(last).toMatchObject({ kind: "end", reason: "max_iterations" });
  });
});

describe("what the person reads of a wait in plan mode", () => {
  it("status says the loop waits for plan mode to end, and what ends the wait", () => {
    const state = loop("started_at: 2026-03-01T11:00:00Z");
    const runtime = { ...makeRuntime(), plan_hold: "2026-03-01T11:30:00.000Z" };
    const text = renderStatus(state, runtime, ".claude/continuation-loop.local.md", [], NOW, "s1");
    expect(text).toMatch(/loop waiting, iteration 1\/10/);
    expect(text).toMatch(/plan mode \(since 11:30:00 UTC\).*accept its plan, or shift\+tab/);
    const running = renderStatus(state, makeRuntime(), ".claude/continuation-loop.local.md", [], NOW, "s1");
    expect(running).not.toMatch(/plan mode/);
  });

  it("the first Stop in plan mode says that accepting Claude's plan needs no prompt; shift+tab needs one", () => {
    // Measured: an accepted plan goes on in the same turn, whose Stop is outside plan mode (test/tui/planExit.tui.test.ts).
    const told = renderPlanHold({ n: 2, max: 3 });
    expect(told).toMatch(/iteration 2\/3 is not counted/);
    expect(told).toMatch(
      /Accept Claude's plan and the loop goes on when that turn ends; or .*shift\+tab and send a prompt/,
    );
  });

  it("/loop-start in plan mode says the loop waits there; the other asking modes keep their note", () => {
    expect(renderPermissionNote("plan")).toMatch(/cannot edit.*waits.*accept Claude's plan, or shift\+tab/);
    expect(renderPermissionNote("default")).not.toMatch(/plan mode/);
    expect(renderPermissionNote("auto")).toBeUndefined();
  });

  it("the companion module's band says the loop waits in plan mode until a turn runs", () => {
    const text = "---\nmax_iterations: 10\nsession_id: s1\nstarted_at: 2026-03-01T11:00:00Z\n---\nGoal\n";
    const sidecar = (planHold: string) =>
      JSON.stringify({ loop: { started_at: "2026-03-01T11:00:00Z", session_id: "s1" }, plan_hold: planHold });
    const view = readLoopView("default", text, sidecar("2026-03-01T11:30:00.000Z"));
    expect(renderBand(view!, NOW, "s1")).toMatch(/loop 1\/10.* · waiting: plan mode$/);
    expect(renderBand(view!, NOW, "s1", undefined, true)).not.toMatch(/plan mode/);
    expect(renderBand(readLoopView("default", text, sidecar(""))!, NOW, "s1")).not.toMatch(/plan mode/);
  });
});
