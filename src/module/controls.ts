// /loop-stop, /loop-pause and /loop-status from the module (docs/REFERENCE.md "The companion module"): typed while
// Claude works they act at once, and stop and pause end the running turn. The answer is the command hooks'
// own: the module runs hooks/prompt.js, as Claude Code would for the typed command, so the slash command,
// the CLI and the module share one implementation (stopLoop, pauseLoop, readStatus). Every `$` call is
// spelled `$.noun.verb(…)` (see index.ts).
import { ANSWER_COLUMNS_ENV } from "../core/protocol.js";
import { readPause } from "../core/sidecar.js";
import type { CommandRunResult, Engine } from "./engine.js";
import { noteNodeOutput, noteNodeThrow } from "./nodeProblem.js";
import { mod } from "./state.js";
import { refreshView } from "./view.js";

/** The module's own commands (a module's names carry no `plugin:` namespace), run at once when typed mid-turn. */
const CONTROLS = [
  { name: "loop-stop", description: "End this session's continuation loop now, and the running turn" },
  { name: "loop-pause", description: "Pause this session's continuation loop now, and end the running turn" },
  { name: "loop-status", description: "Show this session's continuation loop at once, even mid-turn" },
] as const;

/**
 * The command a `command.run` names → `loop-stop|loop-pause|loop-status`, or undefined for any other. The
 * plugin's own slash commands (`continuation-loop:loop-stop`, run idle or queued until the turn's end) are
 * answered here too: then Claude Code runs no UserPromptSubmit for them, and the answer is the same.
 */
export function readControl(command: string): string | undefined {
  const name = command.replace(/^continuation-loop:/, "");
  return CONTROLS.some((control) => control.name === name) ? name : undefined;
}

/** What prompt.js printed → the text for the person, or undefined when it did not answer the command alone. */
function readBlock(stdout: string): string | undefined {
  try {
    const out = JSON.parse(stdout) as { decision?: unknown; reason?: unknown };
    return out.decision === "block" && typeof out.reason === "string" ? out.reason : undefined;
  } catch {
    return undefined;
  }
}

/** This session's loop runs: neither paused nor ended, as the module last read it. */
function runsLoop(): boolean {
  const view = mod.view;
  return view?.state.active === true && readPause(true, view.runtime) === undefined;
}

/** Cells Claude Code takes before and after a command's answer (`  ⎿  ` and the last column). */
const ANSWER_INDENT = 6;

/** hooks/prompt.js's block for the command, or the line when node cannot start (nodeProblem.ts). */
async function runPromptHook($: Engine, input: object, env: Record<string, string>): Promise<string | undefined> {
  try {
    const run = await $.process.run(["node", `${$.plugin.root}/hooks/prompt.js`], {
      cwd: mod.root,
      env,
      stdin: JSON.stringify(input),
      timeoutMs: 15_000,
    });
    return readBlock(run.stdout);
  } catch (error) {
    noteNodeThrow(error);
    if (mod.nodeProblem === undefined) throw error;
    return mod.nodeProblem;
  }
}

export async function registerControls($: Engine): Promise<void> {
  for (const command of CONTROLS)
    await $.command.register({ ...command, argumentHint: "[--name NAME]", immediate: true });
}

/**
 * Runs the command hooks' answer to `/<name> args` for this session. Stop and pause end the running turn
 * once they have ended or paused this session's running loop, so no Stop of that turn can continue it. Undefined when the hook
 * gave no answer of its own (the caller lets Claude Code run the command as without the module).
 */
export async function answerControl(
  $: Engine,
  name: string,
  args: string,
  columns?: number,
): Promise<CommandRunResult | undefined> {
  const sessionId = await $.session.id();
  const { transcriptPath } = await $.session.info();
  const prompt = `/${name}${args ? ` ${args}` : ""}`;
  const input = {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: mod.root,
    hook_event_name: "UserPromptSubmit",
    prompt,
    source: "user",
  };
  const env: Record<string, string> = {
    CLAUDE_PROJECT_DIR: mod.root,
    CLAUDE_PLUGIN_ROOT: $.plugin.root,
    CLAUDE_CODE_SESSION_ID: sessionId,
    CONTINUATION_LOOP_MODULE_LIVE: mod.version,
    // Between turns the answer shows as text under Claude Code's indent; mid-turn as one notice, which draws no
    // line breaks, so its rows are left whole.
    ...(columns && mod.turnId === undefined && { [ANSWER_COLUMNS_ENV]: String(columns - ANSWER_INDENT) }),
  };
  // As the module knows it (read each second while a loop is shown), then read again after the command (a failed
  // read keeps what it knew): did the command end this session's running loop?
  const ranLoop = runsLoop();
  const block = mod.nodeProblem ?? (await runPromptHook($, input, env));
  if (block === undefined) return undefined;
  noteNodeOutput(block);
  await refreshView($, true).catch(() => undefined);
  // Claude Code shows a module's answer under the plugin's name already.
  const text = block.replace(/^continuation-loop: /, "");
  const turnId = mod.turnId;
  // Only this session's loop, stopped or paused now, ends the turn: a refusal, another session's loop, or no
  // usable node leaves the running turn (a person's, or this session's loop's) going on.
  if (name === "loop-status" || !ranLoop || runsLoop()) {
    // A command's answer shows when the turn ends: mid-turn the status goes in the transcript at once,
    // as one notice of one line (a notice per line takes two rows each; a notice draws no line breaks).
    if (turnId === undefined) return { text, isTextDisplayOnly: true };
    $.ui.log(
      text
        .split("\n")
        .map((line) => line.trim())
        .join(" ┃ "),
    );
    return {};
  }
  mod.pending = undefined;
  mod.turnId = undefined;
  if (turnId) await $.turn.abort({ turnId }).catch(() => undefined);
  return { text, isTextDisplayOnly: true };
}
