// A tool Claude Code refuses turn after turn (docs/REFERENCE.md "How a loop ends"; src/core/decideStop.ts): a turn
// whose every call was refused and that left the tree as it was changed nothing, whatever its reply says, so
// stall_limit ends such a loop; a turn with a call that ran is work as before.
import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import { decideStop, type StopFacts } from "../../src/core/decideStop.js";
import { parseState } from "../../src/core/parseState.js";
import { renderRefusedStall } from "../../src/core/permissionWait.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const state = parseState("---\nsession_id: s1\nmax_iterations: 20\n---\nRun the build\n");

/** Stops with a new reply each turn and the given facts; the decisions' kinds and stall counts. */
function run(turns: number, facts: StopFacts): { kind: string; stall: number }[] {
  let runtime: Runtime = makeRuntime();
  const out: { kind: string; stall: number }[] = [];
  for (let i = 0; i < turns; i++) {
    const reply = `Refused, attempt ${i}.`;
    const d = decideStop(state, runtime, assessReply(state, runtime, reply), facts, NOW + i);
    out.push({ kind: d.kind === "end" ? `end:${d.reason}` : d.kind, stall: d.runtime.stall_count });
    runtime = d.runtime;
    if (d.kind === "end") break;
  }
  return out;
}

describe("turns whose every call Claude Code refused", () => {
  it("count as unchanged while the tree stays as it was, and stall the loop", () => {
    const decisions = run(10, { allRefused: true, refused: ["Bash"], treeState: "tree-a" });
    expect(decisions.map((d) => d.kind)).toEqual(["continue", "continue", "continue", "end:stalled"]);
  });

  it("do not when the tree changed, nor a new reply whose calls were not all refused", () => {
    let n = 0;
    expect(
      run(6, {
        get treeState() {
          return `tree-${n++}`;
        },
        allRefused: true,
      } as StopFacts).at(-1)?.stall,
    ).toBe(0);
    expect(run(6, { refused: ["Bash"], treeState: "tree-a" }).map((d) => d.kind)).not.toContain("end:stalled");
  });

  it("name the tools and how to allow them when the loop stalls on them", () => {
    expect(renderRefusedStall(["Bash", "Edit"])).toMatch(/refused Bash, Edit .*permissions\.allow/);
  });
});
