import { rmSync } from "node:fs";
import { editFrontmatter } from "../core/frontmatter.js";
import { clearHandoverPath, resolveProjectRoot } from "../core/loopFiles.js";
import { scanLoops } from "../io/listLoops.js";
import { readBounded } from "../io/readBounded.js";
import { readInterrupted } from "../io/readTranscript.js";
import { readClaudePid } from "../io/processes.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { carryCostOverClear } from "../core/sidecar.js";
import { readModuleLive } from "./moduleBridge.js";
import { updateStateFile } from "../io/updateStateFile.js";
import { writeFileAtomic } from "../io/writeFileAtomic.js";
import type { Context } from "./context.js";
import { pauseOnInterrupt } from "./promptPauses.js";

/** A handover older than this is stale: a /clear's SessionEnd and SessionStart are milliseconds apart. */
const MAX_AGE_MS = 60_000;

/** SessionEnd(clear): remember which session this process had, if it owned a loop. */
export function recordClear(input: JsonObject | undefined, ctx: Context): void {
  const sessionId = stringField(input, "session_id");
  if (stringField(input, "reason") !== "clear" || !sessionId) return;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId);
  if (!own) return;
  // Esc and then /clear: the interrupted loop carries over paused, as it would have stayed (docs/REFERENCE.md "Pausing").
  const transcript = stringField(input, "transcript_path");
  if (transcript && readInterrupted(transcript)) pauseOnInterrupt(own.file, sessionId, ctx.now());
  writeFileAtomic(clearHandoverPath(root, readClaudePid(ctx.env)), JSON.stringify({ from: sessionId, at: ctx.now() }), {
    durable: false,
  });
}

/** SessionStart(clear): the loops of the session this process just cleared now belong to the new one. */
export function takeOverAfterClear(input: JsonObject | undefined, ctx: Context): string {
  const sessionId = stringField(input, "session_id");
  if (stringField(input, "source") !== "clear" || !sessionId) return "";
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const path = clearHandoverPath(root, readClaudePid(ctx.env));
  let from: string | undefined;
  try {
    // A few dozen bytes; anything bigger is not one.
    const read = readBounded(path, 1024);
    if (read.kind !== "found") return "";
    const handover = JSON.parse(read.bytes.toString("utf8")) as { from?: unknown; at?: unknown };
    if (typeof handover.from === "string" && ctx.now() - Number(handover.at) < MAX_AGE_MS) from = handover.from;
  } catch {
    return "";
  } finally {
    rmSync(path, { force: true });
  }
  const moved: string[] = [];
  for (const { file, owner } of scanLoops(root, ctx.env).loops) {
    if (owner !== from) continue;
    updateStateFile(file, (snapshot) => {
      if (snapshot.kind !== "found" || snapshot.state.session_id !== from) return { result: undefined };
      const { state, runtime } = snapshot;
      return {
        change: {
          write: editFrontmatter(snapshot.text, { session_id: sessionId }, file.shown, snapshot.frontmatter),
          state: { ...state, session_id: sessionId },
        },
        // Counters carry over; the full prompt goes out again, since the new session starts empty. Where the
        // module hands the cost figures, the session's restarts at zero: the spend so far is carried.
        runtime: { ...(readModuleLive(ctx.env) ? carryCostOverClear(runtime) : runtime), sent_digest: "" },
        result: undefined,
        onCommit: () => {
          // A fresh_context loop clears itself every iteration through the module: no line for that.
          if (!(state.active && state.fresh_context && readModuleLive(ctx.env)))
            moved.push(state.active ? file.shown : `${file.shown}, paused: /loop-resume resumes it`);
        },
      };
    });
  }
  if (moved.length === 0) return "";
  return `${JSON.stringify({ systemMessage: `continuation-loop: the loop carries over /clear to this session (${moved.join("; ")}).` })}\n`;
}
