import { realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { LoopError } from "../core/errors.js";
import type { LoopCommand } from "../core/loopCommand.js";
import { parseStartArgs } from "../core/parseStartArgs.js";
import { COMMAND_MARKER, renderStartUsage } from "../core/renderStart.js";
import { locateLoop } from "./locate.js";
import type { LoopPromptContext, LoopPromptOutput } from "./loopPrompt.js";
import { startLoop } from "./start.js";
import { readStatus } from "./status.js";
import { stopLoop } from "./stop.js";

/** hooks/prompt.js (or hooks/cli.js) sits in hooks/; the package root is one folder up. */
function defaultPackageRoot(): string {
  const script = process.argv[1] ?? ".";
  try {
    return resolve(dirname(realpathSync(script)), "..");
  } catch {
    return resolve(dirname(script), "..");
  }
}

const describe = (error: unknown) =>
  error instanceof LoopError
    ? `continuation-loop: ${error.describe()}.`
    : `continuation-loop: internal error (${error instanceof Error ? error.message : String(error)}).`;

/** Runs a loop command typed by the user; refusals block the prompt so Claude never acts on them. */
export function runLoopCommand(
  command: LoopCommand,
  input: { session_id?: string; cwd?: string },
  ctx: LoopPromptContext,
): LoopPromptOutput {
  const where = locateLoop(ctx.env, input.cwd, ctx.cwd);
  try {
    if (command.name === "start") {
      const request = parseStartArgs(command.args);
      if (request.help) return { block: renderStartUsage() };
      const started = startLoop(request, {
        where,
        env: ctx.env,
        sessionId: input.session_id,
        now: ctx.now,
        packageRoot: ctx.packageRoot ?? defaultPackageRoot(),
      });
      return { systemMessage: started.summary, additionalContext: started.context };
    }
    if (command.name === "stop") {
      const stopped = stopLoop(where, ctx.now, input.session_id);
      const note = stopped.stopped ? " Stop working on the loop's goal unless the user asks you to go on." : "";
      return { systemMessage: stopped.message, additionalContext: `${COMMAND_MARKER} ${stopped.message}${note}` };
    }
    const status = readStatus(where, ctx.now, input.session_id);
    return { systemMessage: status.text, additionalContext: `${COMMAND_MARKER} /loop-status output:\n${status.text}` };
  } catch (error) {
    return { block: describe(error) };
  }
}
