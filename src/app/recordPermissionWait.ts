// Notification(permission_prompt) (docs/REFERENCE.md "Leave it running"): Claude Code waits for a person to answer
// a permission prompt in the session that runs a loop. Nobody may be there (a background session, a loop left
// overnight): the sidecar says so for status and the band, the history records it for the report, and
// the bell rings when `notify` is on. The next Stop or pause clears it.
import type { HistoryRecord } from "../core/history.js";
import { resolveProjectRoot } from "../core/loopFiles.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { choosePendingCall, parsePermissionTool } from "../core/permissionWait.js";
import { tryAppendHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { readPendingCall, readSubagentPendingCall, readTranscriptSize } from "../io/readTranscript.js";
import { updateStateFile } from "../io/updateStateFile.js";
import type { Context } from "./context.js";

/** The hook's stdout: the bell when the loop's `notify` is on, else nothing. */
export function recordPermissionWait(input: JsonObject | undefined, ctx: Context): string {
  const sessionId = stringField(input, "session_id");
  if (!sessionId) return "";
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId);
  if (!own) return "";
  const { file } = own;
  // 2.1.332's message names the main thread's tool; else the transcripts' pending calls tell it (the input names
  // no subagent: a subagent's call is in its own transcript).
  const transcript = stringField(input, "transcript_path");
  // Its size before its calls are read: a call that lands meanwhile is found, or lies past this offset.
  const offset = transcript ? readTranscriptSize(transcript) : 0;
  const main = transcript ? readPendingCall(transcript) : undefined;
  const subagent = transcript ? readSubagentPendingCall(transcript) : undefined;
  const message = stringField(input, "message");
  const tool = parsePermissionTool(message, { main: main?.name, subagent: subagent?.name });
  // The call asked about: its result in its transcript says the prompt was answered (status reads it). When the
  // transcripts show no pending call, a call the session's transcript gets since, with its result, says so.
  const chosen = choosePendingCall(message, main, subagent);
  const call = chosen?.id
    ? { id: chosen.id, transcript: chosen.transcript, offset: 0 }
    : transcript && { id: "", transcript, offset };
  const time = new Date(ctx.now()).toISOString();
  const outcome = updateStateFile(file, (snapshot) => {
    if (snapshot.kind !== "found" || snapshot.state.session_id !== sessionId || !snapshot.state.active)
      return { result: "" };
    const { state, runtime } = snapshot;
    const record: HistoryRecord = {
      time,
      state_file: file.shown,
      session: sessionId,
      iteration: state.iteration_count,
      decision: "waiting_permission",
      reason: "permission",
      tool,
    };
    return {
      runtime: {
        ...runtime,
        permission_wait: {
          tool,
          since: time,
          transcript: transcript ?? "",
          ...(call && { call }),
        },
      },
      result: state.notify ? `${JSON.stringify({ terminalSequence: "\u0007" })}\n` : "",
      onCommit: () => tryAppendHistory(file.historyPath, record),
    };
  });
  return outcome.kind === "done" ? outcome.result : "";
}
