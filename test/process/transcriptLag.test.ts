// The reply's line lands in the transcript after the Stop hook starts (test/e2e/support/README.md): the Stop reads it
// as it lands, and this turn's tokens count at this Stop. The moment is reached on purpose: the hook stops where it
// starts to wait (a test-only pause point), the line is written, and the hook goes on.
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnBundle } from "../support/processes.js";
import { makeProject } from "../support/runHook.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const REPLY = "Fixed the parser; two tests left.";

/** A loop at iteration 2 whose transcript holds the turn's prompt and, with `landed`, its reply. */
function loopAwaitingReply(landed: boolean) {
  const { root, statePath } = makeProject("---\nmax_iterations: 10\niteration_count: 2\nsession_id: s1\n---\nFix it\n");
  const transcript = join(root, "transcript.jsonl");
  writeFileSync(transcript, jsonl(user("Fix it"), ...(landed ? [assistant("m1", REPLY, 321)] : [])));
  const stdin = JSON.stringify({
    session_id: "s1",
    transcript_path: transcript,
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: REPLY,
  });
  const sidecar = () => JSON.parse(readFileSync(join(root, ".claude/continuation-loop.runtime.json"), "utf8"));
  return { root, statePath, transcript, stdin, sidecar };
}

describe("a Stop whose reply lands in the transcript after it starts", () => {
  it("waits for the line and counts this turn's tokens at this Stop", async () => {
    const loop = loopAwaitingReply(false);
    const run = await spawnBundle("stop", {
      cwd: loop.root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "transcript-wait:pause" },
      stdin: loop.stdin,
      whilePaused: () => appendFileSync(loop.transcript, jsonl(assistant("m1", REPLY, 321))),
    });
    expect(run.stderr).toContain("paused at transcript-wait");
    expect(run.code).toBe(2);
    expect(readFileSync(loop.statePath, "utf8")).toMatch(/^iteration_count: 3$/m);
    expect(loop.sidecar()).toMatchObject({ output_tokens: 321, transcript_offset: statSync(loop.transcript).size });
  });

  it("with the line already there, does not wait", async () => {
    const loop = loopAwaitingReply(true);
    const run = await spawnBundle("stop", {
      cwd: loop.root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "transcript-wait:pause" },
      stdin: loop.stdin,
      whilePaused: () => {
        throw new Error("the Stop waited for a line that was there");
      },
    });
    expect(run.stderr).not.toContain("paused at transcript-wait");
    expect(run.code).toBe(2);
    expect(loop.sidecar()).toMatchObject({ output_tokens: 321, transcript_offset: statSync(loop.transcript).size });
  });

  it("whose line never lands, goes on after its wait, and counts the tokens when the line comes", async () => {
    const loop = loopAwaitingReply(false);
    const first = await spawnBundle("stop", { cwd: loop.root, stdin: loop.stdin });
    expect(first.code).toBe(2);
    expect(loop.sidecar()).toMatchObject({ output_tokens: 0 });
    appendFileSync(loop.transcript, jsonl(assistant("m1", REPLY, 321), user("go on"), assistant("m2", REPLY, 7)));
    const second = await spawnBundle("stop", { cwd: loop.root, stdin: loop.stdin });
    expect(second.code).toBe(2);
    expect(loop.sidecar()).toMatchObject({ output_tokens: 328 });
  });
});
