// The Stop's pure steps in order, as the decision and property tests drive them (test/unit/decideStop*.test.ts).
import { assessReply } from "../../src/core/assessReply.js";
import { metricReached } from "../../src/core/decideImprovement.js";
import {
  decideOwnership,
  decideStateUpdates,
  decideStop as decideTurn,
  type StopFacts,
} from "../../src/core/decideStop.js";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { type LoopState, parseState } from "../../src/core/parseState.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";

export const NOW = Date.parse("2026-03-01T12:00:00Z");

/** A loop's state with the runtime its sidecar holds (the two travel apart in the hooks). */
export type S = LoopState & { runtime?: Runtime };
export type Given = StopFacts & { sessionId: string | undefined; reply: string };

/** A `runtime:` map in the test's frontmatter stands for what the sidecar holds. */
export function state(front: string): S {
  const text = `---\n${front}\n---\nGoal\n`;
  const runtime = parseFrontmatter(text).data.runtime as Partial<Runtime> | undefined;
  return { ...parseState(text), ...(runtime && { runtime: { ...makeRuntime(), ...runtime } }) };
}
export const facts = (over: Partial<Given> = {}): Given => ({ sessionId: "s1", reply: "working on it", ...over });

/** The Stop hook's pure steps in order: ownership, the reply's assessment, the decision, the file's updates. */
export function decideStop(s: S, f: Given, now: number) {
  const ownership = decideOwnership(s, f.sessionId);
  if (ownership === "other") return { kind: "ignore" as const, why: "other_session" };
  if (ownership === "paused") return { kind: "ignore" as const, why: "paused" };
  const runtime = s.runtime ?? makeRuntime();
  const d = decideTurn(s, runtime, assessReply(s, runtime, f.reply, f.checklist, metricReached(s, f.metric)), f, now);
  return d.kind === "continue" ? { ...d, updates: decideStateUpdates(s, f.sessionId, now) } : d;
}
