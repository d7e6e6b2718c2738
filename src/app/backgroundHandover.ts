// A loop follows its session into the background (docs/REFERENCE.md "Leave it running"): `/background` forks the
// session into a background one under a new id and ends the terminal's; the loop goes on there from the same
// iteration, bound to the new session, and the terminal's no longer drives it.
import { editFrontmatter } from "../core/frontmatter.js";
import type { LoopState } from "../core/parseState.js";
import { readBackgroundJob } from "../core/handover.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { resolveProjectRoot } from "../core/loopFiles.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { readClaudeProcess } from "../io/processes.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";
import type { Handover } from "./findHandover.js";

/**
 * Binds the loop to this session when it is still the session's it continues (checked under the lock): the
 * counters and the iteration carry over, so this session's first Stop counts the iteration that was running.
 * Recorded in the history as a resume.
 */
export function takeOverHandover(handover: Handover, sessionId: string, ctx: Context): void {
  const { file } = handover.loop;
  updateStateFile(file, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== handover.from) return { result: undefined };
    const { state, text, runtime } = snapshot;
    const owned: LoopState = { ...state, session_id: sessionId };
    return {
      change: { write: editFrontmatter(text, { session_id: sessionId }, file.shown), state: owned },
      runtime: { ...runtime, continued_in_job: "", owner_pid: readClaudeProcess(ctx.env) },
      result: undefined,
      onCommit: () =>
        tryAppendHistory(file.historyPath, {
          time: new Date(ctx.now()).toISOString(),
          state_file: file.shown,
          session: sessionId,
          iteration: state.iteration_count,
          decision: "resume",
          reason: "background",
        }),
    };
  });
}

/**
 * SessionStart(resume) on Claude Code 2.1.197, where `/background` records no hand-over of its own: the
 * background session starts under the id of the session it continues (its own short id is in
 * `$CLAUDE_JOB_DIR`), so that session's loop notes which background session went on with it. The loop is
 * taken over at that session's first Stop, once the terminal's has ended (src/app/findHandover.ts).
 */
export function recordContinuedInJob(input: JsonObject | undefined, ctx: Context): void {
  const from = stringField(input, "session_id");
  const job = readBackgroundJob(ctx.env);
  if (!from || job === undefined || from.startsWith(job)) return;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  for (const { file, owner } of scanLoops(root, ctx.env).loops) {
    if (owner !== from) continue;
    updateStateFile(file, (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== from) return { result: undefined };
      return { runtime: { ...snapshot.runtime, continued_in_job: job }, result: undefined };
    });
  }
}
