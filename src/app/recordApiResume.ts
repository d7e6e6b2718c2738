import { resolveProjectRoot } from "../core/loopFiles.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { renderEndRecord } from "../core/endRecord.js";
import { decidePassedTimeOrSpend } from "../core/passedLimits.js";
import { renderEndMessage } from "../core/renderStop.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";
import type { CommandAnswer } from "./slashCommands.js";

/** What the companion module's prompt ends: the wait after an API error, or the hold for background work. */
type ResumeReason = "api_wait" | "background_wait";

const WAITED_FOR: Record<ResumeReason, string> = {
  api_wait: "the wait after an API error",
  background_wait: "the wait for background work",
};

const dropped = (reason: ResumeReason): CommandAnswer => ({
  block: `continuation-loop: the loop was stopped or paused during ${WAITED_FOR[reason]}, so it does not go on; /loop-resume takes it up again.`,
});

const OVER: CommandAnswer = {
  block: "continuation-loop: the loop had already gone on after the background work, so this prompt was not needed.",
};

/**
 * The companion module's prompt after a wait (docs/REFERENCE.md "Going on after an API error", "Background
 * work"): the loop goes on, recorded as a `resume` in the history. Should the loop have been stopped or
 * paused in the moment between the module's own check and this prompt, the prompt is refused: a stopped
 * or paused loop never goes on, and one past its time or spend limit ends without a turn.
 */
function recordResume(input: JsonObject, ctx: Context, reason: ResumeReason): CommandAnswer | undefined {
  const sessionId = stringField(input, "session_id");
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = sessionId ? scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId) : undefined;
  if (!own) return dropped(reason);
  const { file } = own;
  const outcome = updateStateFile<CommandAnswer | undefined>(file, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: dropped(reason) };
    const { state, runtime } = snapshot;
    if (!state.active || runtime.pause?.reason === "question") return { result: dropped(reason) };
    // The task's notification came first and the loop went on: this prompt would be a turn too many.
    if (reason === "background_wait" && !runtime.background_hold) return { result: OVER };
    // Time and spend hold while the loop waits: a limit passed meanwhile ends it here, with no turn started.
    const now = ctx.now();
    const limit = decidePassedTimeOrSpend(state, runtime, now);
    if (limit) {
      const base = {
        time: new Date(now).toISOString(),
        state_file: file.shown,
        session: sessionId,
        iteration: state.iteration_count,
      };
      const end = { kind: "end", reason: limit, iteration: state.iteration_count, runtime } as const;
      return {
        change: { remove: true },
        result: {
          block: renderEndMessage(
            state,
            end,
            now,
            file.name,
            `It ended during ${WAITED_FOR[reason]}; no turn was started.`,
          ),
        },
        onCommit: () => tryAppendHistory(file.historyPath, renderEndRecord(state, runtime, base, limit, now)),
      };
    }
    return {
      // The hold stays: the Stop that ends this turn finds its tasks waited out.
      ...(reason === "api_wait" && { runtime: { ...runtime, api_wait_until: "" } }),
      result: undefined,
      onCommit: () => {
        tryAppendHistory(file.historyPath, {
          time: new Date(ctx.now()).toISOString(),
          state_file: file.shown,
          session: sessionId,
          iteration: state.iteration_count,
          decision: "resume",
          reason,
          ...(reason === "api_wait" && { failures: runtime.api_errors_since_stop }),
          ...(reason === "background_wait" &&
            runtime.background_hold && {
              tasks: runtime.background_hold.tasks.map(({ id, type, description }) => ({ id, type, description })),
            }),
        });
      },
    };
  });
  return outcome.kind === "done" ? outcome.result : dropped(reason);
}

/** The module's prompt after a wait for an API error. */
export const recordApiResume = (input: JsonObject, ctx: Context) => recordResume(input, ctx, "api_wait");

/** The module's prompt once `background_wait` has passed while background tasks still run. */
export const recordBackgroundResume = (input: JsonObject, ctx: Context) => recordResume(input, ctx, "background_wait");
