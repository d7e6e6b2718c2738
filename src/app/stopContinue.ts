// A Stop that continues the loop (docs/ARCHITECTURE.md "The path of one Stop"): the count saved, the sidecar's
// bookkeeping, and the prompt Claude is sent, in full only when it carries news.
import { renderNotHeld } from "../core/background.js";
import { decideStateUpdates, renderUntilStatus, type StopDecision } from "../core/decideStop.js";
import { LoopError } from "../core/errors.js";
import { editFrontmatter } from "../core/frontmatter.js";
import type { StopInput } from "../core/hookInput.js";
import type { HistoryRecord } from "../core/history.js";
import type { LoopFile } from "../core/loopFiles.js";
import { decideMistypedNotice } from "../core/mistypedFields.js";
import type { LoopState } from "../core/parseState.js";
import {
  renderContinuation,
  renderPromptDigest,
  renderReminder,
  renderUntilDigest,
  type UntilNews,
} from "../core/renderStop.js";
import type { Runtime } from "../core/sidecar.js";
import { tryAppendHistory } from "../io/history.js";
import { readClaudeProcess } from "../io/processes.js";
import { readInstalledCopy } from "../io/readInstalledCopy.js";
import { readNotes } from "../io/readProjectFiles.js";
import type { StatePlan, StateSnapshot } from "../io/updateStateFile.js";
import type { Context, HookAnswer } from "./context.js";
import { decideFresh } from "./freshContext.js";
import { locateField } from "./gatherImprovement.js";
import type { GatheredFacts } from "./gatherStopFacts.js";
import { readModuleStop, renderContinuationAnswer } from "./moduleBridge.js";
import { refuse } from "./stopNotices.js";

/** The `until` command's failure at this Stop, its fingerprint, and whether Claude was told the same one last time. */
function readUntilNews(state: LoopState, facts: GatheredFacts, runtime: Runtime): UntilNews & { digest: string } {
  const status = renderUntilStatus(state, facts) ?? "";
  const tail = facts.until?.outputTail ?? "";
  const digest = renderUntilDigest(status, tail);
  return { status, tail, digest, same: runtime.until_tail_digest === digest };
}

/**
 * The plan of a Stop whose decision is to continue: the file's count and fields edited in place, the sidecar's
 * bookkeeping, this iteration's history line at commit, and the continuation answer. `resumedByHand`: the
 * person set `active: true` since the last Stop, which brings the full prompt back, as `/loop-resume` does.
 */
export function continueLoop(
  decision: Extract<StopDecision, { kind: "continue" }>,
  snapshot: Extract<StateSnapshot, { kind: "found" }>,
  file: LoopFile,
  input: StopInput,
  ctx: Context,
  facts: GatheredFacts,
  now: number,
  record: HistoryRecord,
  resumedByHand: boolean,
): StatePlan<HookAnswer> {
  const { state, text, frontmatter } = snapshot;
  try {
    const notes = state.notes_file ? readNotes(file.root, state.notes_file, file.shown) : undefined;
    const updates = decideStateUpdates(state, input.session_id, now);
    // The full prompt only when it carries news; otherwise a one-line reminder (docs/REFERENCE.md "What you see while a loop runs").
    const digest = renderPromptDigest(state, notes?.text, facts.checklist);
    // fresh_context: a cleared context gets the full prompt every time (docs/REFERENCE.md "Fresh context").
    const fresh = decideFresh(state, decision.runtime, ctx.env, () => readInstalledCopy(ctx.packageRoot));
    // A key the person misspelled (`max_iteration`) does nothing: they are told once (docs/REFERENCE.md "The state file").
    const mistyped = decideMistypedNotice(state.mistyped, file.shown, fresh.runtime.mistyped_told);
    // Resumed by hand: the full prompt again, as /loop-resume sends it.
    const news =
      fresh.fresh || decision.refusal !== undefined || decision.runtime.sent_digest !== digest || resumedByHand;
    // A failed `until` alone is no news: the reminder carries its status and output (docs/REFERENCE.md "What you see while a loop runs").
    const until = decision.untilFailure !== undefined ? readUntilNews(state, facts, decision.runtime) : undefined;
    // `/loop-start --bg`: where the module hands the continuation on, it sends the session to the background with it.
    const toBackground = decision.runtime.background_asked && readModuleStop(ctx.env);
    const runtime = {
      ...fresh.runtime,
      mistyped_told: mistyped.told,
      sent_digest: digest,
      until_tail_digest: until?.digest ?? "",
      // The owner's Claude Code process: while it runs, /loop-resume elsewhere needs --force (docs/REFERENCE.md "Several loops").
      owner_pid: readClaudeProcess(ctx.env),
      background_asked: false,
      // A Stop means the turn went on past any permission prompt.
      permission_wait: null,
    };
    // Background tasks the loop does not wait for, and on the command path how to wait (docs/REFERENCE.md "Background work").
    const background = decision.notHeld
      ? renderNotHeld(decision.notHeld, state.background_wait, !readModuleStop(ctx.env))
      : "";
    const prompt = news
      ? renderContinuation(state, decision, now, {
          ...(notes && { notes }),
          ...(facts.checklist && { checklist: facts.checklist }),
          ...(facts.unfinishedTodos && { unfinishedTodos: facts.unfinishedTodos }),
          ...(fresh.fresh && { fresh: true }),
          ...(background && { background }),
        })
      : renderReminder(state, decision, now, { checklist: facts.checklist, until, background });
    const written = editFrontmatter(text, updates, file.shown, frontmatter);
    const notice = [fresh.notice, mistyped.notice, facts.notice].filter(Boolean).join("\n");
    return {
      change: { write: written, state: { ...state, ...updates } as LoopState },
      runtime,
      result: renderContinuationAnswer(prompt, ctx.env, fresh.fresh, notice || undefined, toBackground),
      onCommit: () => tryAppendHistory(file.historyPath, record),
    };
  } catch (error) {
    if (!(error instanceof LoopError)) throw error;
    // A field refused here (notes_file) is named with its line, as every refusal of the file is.
    return {
      result: refuse(locateField(error, text, frontmatter), "The loop did not continue; the file was not changed."),
    };
  }
}
