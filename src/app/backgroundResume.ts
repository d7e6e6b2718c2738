// `continuation-loop resume --bg` (docs/REFERENCE.md "Leave it running"): a loop whose session's process was killed,
// or restarted by `claude respawn`, is idle in a session that no longer runs a turn. The loop goes on from the
// same iteration, in the background: `claude --bg --resume <session id>` with a prompt that takes the loop over,
// in that session or in the copy of it Claude Code starts (2.1.197 always copies; 2.1.332 when given flags). A
// session Claude Code still runs is stopped first, so that the two never run the loop at once.
import { LoopError } from "../core/errors.js";
import type { LoopFile } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { BACKGROUND_START, renderTakeOverPrompt } from "../core/protocol.js";
import { renderBackgroundResumed } from "../core/renderBackground.js";
import { readBackgroundSessions, runClaudeCommand } from "../io/claudeCli.js";
import { findClaude } from "../io/claudeProcess.js";
import { readStateFile } from "../io/readStateFile.js";
import type { CommandCall } from "./commandTable.js";
import { EXIT } from "./context.js";
import { readStopHookRegistered } from "./doctorChecks.js";
import { resumeLoop } from "./resumeLoop.js";

const refuse = (command: string, file: LoopFile, why: string, expected: string) =>
  new LoopError("LOOP_RUNNING", why, { file: file.shown, expected: `${expected} (${command})` });

export function resumeInBackground(file: LoopFile, call: CommandCall): number {
  const { ctx, command } = call;
  const read = readStateFile(file.statePath, file.shown);
  if (read.kind !== "found")
    throw refuse(command, file, "there is no loop to resume", "continuation-loop start --bg GOAL");
  const state = parseState(read.text, file.shown);
  const sessionId = state.session_id;
  if (sessionId === undefined || sessionId.startsWith(BACKGROUND_START))
    throw refuse(command, file, "no session has run this loop yet", "a loop a session has run");
  const claude = findClaude(ctx.env, ctx.cwd);
  if ("missing" in claude)
    throw new LoopError("CLAUDE_UNAVAILABLE", `Claude Code was not found (${claude.missing})`, {
      file: command,
      expected: "claude on PATH, or CONTINUATION_LOOP_CLAUDE",
    });
  const session = readBackgroundSessions(claude.path, ctx.env, file.root)?.find((s) => s.sessionId === sessionId);
  if (session?.status === "busy")
    throw refuse(command, file, `its background session ${session.id} is running a turn`, "nothing: it goes on");
  // Still listed as running (an idle process after a restart) or about to be restarted: stopped, so that the
  // resume below goes on in this very session rather than a copy.
  if (session && session.state !== "stopped")
    runClaudeCommand(claude.path, ["stop", session.id], { cwd: file.root, env: ctx.env, timeoutMs: 30_000 });
  const resumed = resumeLoop(file, { sessionId, now: ctx.now(), force: true, claudePid: "", env: ctx.env, command });
  const opening = `The session was started again: the loop goes on from iteration ${state.iteration_count}/${state.max_iterations}`;
  // The plugin from this package, unless the settings load it already. With a flag of ours, or on a Claude Code
  // that keeps no id, Claude Code goes on in a copy of the session: its first prompt takes the loop over.
  const plugin = readStopHookRegistered(file.root, ctx.env, ctx.home) ? [] : ["--plugin-dir", ctx.packageRoot];
  const prompt = renderTakeOverPrompt(sessionId, opening, resumed.context);
  const ran = runClaudeCommand(claude.path, ["--bg", "--resume", sessionId, ...plugin, "--", prompt], {
    cwd: file.root,
    env: ctx.env,
  });
  const short = /backgrounded · ([0-9a-f]{8})/.exec(ran.stdout)?.[1];
  if (ran.code !== 0 || short === undefined) {
    const said = `${ran.stderr}\n${ran.stdout}`.split("\n").find((line) => line.trim() && !/^Starting/.test(line));
    throw new LoopError(
      "CLAUDE_UNAVAILABLE",
      `Claude Code did not resume the session (${ran.error ?? `exit ${ran.code}`}${said ? `: ${said.trim()}` : ""})`,
      { file: file.shown, expected: "what Claude Code says to do, then resume again; the loop waits, resumed" },
    );
  }
  const copy = !sessionId.startsWith(short);
  ctx.out(
    `${renderBackgroundResumed({ short, file: file.shown, iteration: state.iteration_count, max: state.max_iterations, copy }).join("\n")}\n`,
  );
  return EXIT.ok;
}
