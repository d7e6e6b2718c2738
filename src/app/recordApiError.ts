import { decideApiWait, parseWaitScale } from "../core/decideApiWait.js";
import { editFrontmatter } from "../core/frontmatter.js";
import type { HistoryRecord } from "../core/history.js";
import { resolveProjectRoot } from "../core/loopFiles.js";
import { renderEndRecord } from "../core/endRecord.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";
import { MODULE_ENV } from "../core/protocol.js";

/** An ISO time from the environment or the state file, in ms; undefined when absent or unreadable. */
const parseTime = (value: string | undefined): number | undefined => {
  const at = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
};

/**
 * StopFailure (docs/REFERENCE.md "Several loops", "Going on after an API error"): a turn of the session's loop ended on an API
 * error (rate or usage limit, overload…) instead of a Stop. It is recorded in the history and the sidecar,
 * so /loop-status says why the loop went quiet, and the next Stop does not count it as an unchanged turn.
 * Where the companion module runs (it says so in CONTINUATION_LOOP_RESUME, with Claude Code's reset time
 * in CONTINUATION_LOOP_RESETS_AT), a limit or an overload is also decided here (`decideApiWait`): a wait
 * the module then keeps, a pause after `max_api_failures` in a row, or the loop's end when the wait would
 * pass `max_duration`. Without the module the loop goes on when the session does. A subagent's error is
 * left alone (docs/REFERENCE.md "Subagents"). Prints the bell when it pauses or ends the loop and `notify` is on,
 * else nothing.
 */
export function recordApiError(input: JsonObject | undefined, ctx: Context): string {
  const sessionId = stringField(input, "session_id");
  // A subagent's error (it names its `agent_id`) ended no turn of the main thread, which goes on with the
  // Agent call's result: it is not the loop's.
  if (!sessionId || stringField(input, "agent_id")) return "";
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId);
  if (!own) return "";
  const { file } = own;
  const kind = stringField(input, "error") || "unknown";
  const now = ctx.now();
  const time = new Date(now).toISOString();
  // The loop ends or waits for the person: they hear it from another window, as at a Stop's end or pause.
  const ring = (state: { notify: boolean }) =>
    state.notify ? `${JSON.stringify({ terminalSequence: "\u0007" })}\n` : "";
  const outcome = updateStateFile(file, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId) return { result: "" };
    const { state, text, runtime } = snapshot;
    // Resumed by hand (`active: true`) after a pause for errors in a row: the count starts again.
    const failures = (runtime.pause?.reason === "api_errors" ? 0 : runtime.api_errors_since_stop) + 1;
    const record: HistoryRecord = {
      time,
      state_file: file.shown,
      session: sessionId,
      iteration: state.iteration_count,
      decision: "api_error",
      reason: kind,
    };
    const counted = {
      ...runtime,
      last_api_error: `${kind} at ${time}`,
      api_errors_since_stop: failures,
      api_wait_until: "",
      pause: runtime.pause?.reason === "api_errors" ? null : runtime.pause,
    };
    const moduleResumes = ctx.env[MODULE_ENV.resume] === "1" && state.active && runtime.pause?.reason !== "question";
    const wait = moduleResumes
      ? decideApiWait({
          kind,
          failures,
          maxFailures: state.max_api_failures,
          now,
          resetsAt: parseTime(ctx.env[MODULE_ENV.resetsAt]),
          startedAt: parseTime(state.started_at),
          maxDurationS: state.max_duration,
          random: Math.random(),
          scale: parseWaitScale(ctx.env.CONTINUATION_LOOP_WAIT_SCALE),
        })
      : ({ kind: "none" } as const);
    const base = { time, state_file: file.shown, session: sessionId, iteration: state.iteration_count };
    if (wait.kind === "end") {
      return {
        change: { remove: true },
        result: ring(state),
        onCommit: () => {
          tryAppendHistory(file.historyPath, record);
          tryAppendHistory(file.historyPath, renderEndRecord(state, runtime, base, wait.reason, now));
        },
      };
    }
    if (wait.kind === "pause") {
      const written = editFrontmatter(text, { active: false }, file.shown, snapshot.frontmatter);
      return {
        change: { write: written, state: { ...state, active: false } },
        runtime: { ...counted, pause: { reason: "api_errors", text: wait.reason, since: time } },
        result: ring(state),
        onCommit: () => {
          tryAppendHistory(file.historyPath, record);
          tryAppendHistory(file.historyPath, { ...base, decision: "pause", reason: "api_errors", failures });
        },
      };
    }
    const until = wait.kind === "wait" ? new Date(wait.until).toISOString() : "";
    return {
      runtime: { ...counted, api_wait_until: until },
      result: "",
      onCommit: () => {
        tryAppendHistory(file.historyPath, record);
        if (wait.kind === "wait") {
          tryAppendHistory(file.historyPath, {
            ...base,
            decision: "wait",
            reason: kind,
            until,
            wait_s: Math.round(wait.waitMs) / 1000,
            basis: wait.basis,
            failures,
          });
        }
      },
    };
  });
  return outcome.kind === "done" ? outcome.result : "";
}
