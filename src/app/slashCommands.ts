import { LoopError } from "../core/errors.js";
import type { LoopCommand } from "../core/loopCommand.js";
import { chooseSessionLoop, loopFileAt, resolveProjectRoot } from "../core/loopFiles.js";
import { namedLoopFile } from "../core/namedLoopFile.js";
import { parseCliArgs } from "./parseCliArgs.js";
import { parseStartArgs } from "../core/parseStartArgs.js";
import { parseAgainArgs } from "../core/restartRequest.js";
import { renderStartCard, renderStartUsage } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { readClaudePid } from "../io/readClaudePid.js";
import { stringField } from "../core/hookStdin.js";
import type { Context } from "./context.js";
import { pauseLoop } from "./pauseLoop.js";
import { readStatus } from "./readStatus.js";
import { readReport, renderReportSummary } from "./reportCommand.js";
import { renderCliCommand } from "./renderCliCommand.js";
import { restartLoop } from "./restartLoop.js";
import { resumeLoop } from "./resumeLoop.js";
import { startLoop } from "./startLoop.js";
import { stopLoop } from "./stopLoop.js";

/** What the prompt hook says for a loop command. `block` refuses the prompt with a reason for the user. */
export interface CommandAnswer {
  block?: string;
  systemMessage?: string;
  additionalContext?: string;
}

const describe = (error: unknown) =>
  error instanceof LoopError
    ? `continuation-loop: ${error.describe()}.`
    : `continuation-loop: internal error (${error instanceof Error ? error.message : String(error)}).`;

/** `--name NAME` / `--all` after /loop-stop or /loop-status, split like a shell would not: on whitespace. */
const optionsOf = (command: LoopCommand) =>
  parseCliArgs(`/loop-${command.name}`, command.args.split(/\s+/).filter(Boolean), {
    name: "value",
    ...(command.name === "resume"
      ? { force: "flag" }
      : command.name === "pause" || command.name === "report"
        ? {}
        : { all: "flag" }),
  });

/** Runs a loop command the user typed; refusals block the prompt so Claude never acts on them. */
export function runSlashCommand(command: LoopCommand, input: Record<string, unknown>, ctx: Context): CommandAnswer {
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const sessionId = stringField(input, "session_id");
  try {
    if (command.name === "start") {
      const again = parseAgainArgs(command.args.split(/\s+/).filter(Boolean));
      if (again) {
        const restarted = restartLoop(again.back, again.force, ctx, root, sessionId);
        return { systemMessage: restarted.summary, additionalContext: restarted.context };
      }
      const request = parseStartArgs(command.args);
      if (request.help) return { block: renderStartUsage(command.typed) };
      if (request.card) return { block: `continuation-loop: a goal is required.\n${renderStartCard(command.typed)}` };
      const started = startLoop(request, ctx, root, sessionId);
      return { systemMessage: started.summary, additionalContext: started.context };
    }
    const options = optionsOf(command);
    if (command.name === "stop") {
      const { loops } = scanLoops(root, ctx.env);
      const targets = options.all
        ? loops.map((loop) => loop.file)
        : [
            typeof options.name === "string"
              ? namedLoopFile(root, options.name, "/loop-stop")
              : (chooseSessionLoop(loops, sessionId)?.file ?? loopFileAt(root, "default")),
          ];
      const messages = targets.map((file) => stopLoop(file, ctx.now(), sessionId));
      const message = messages.length
        ? messages.map((m) => m.message).join("\n")
        : "continuation-loop: no loop is running; nothing to stop.";
      // Answered by the hook itself: no model turn, so no Stop that could continue anything.
      return { block: message };
    }
    if (command.name === "pause") {
      const { loops } = scanLoops(root, ctx.env);
      const file =
        typeof options.name === "string"
          ? namedLoopFile(root, options.name, "/loop-pause")
          : (chooseSessionLoop(loops, sessionId)?.file ?? loopFileAt(root, "default"));
      // Answered by the hook itself, as /loop-stop: no model turn.
      return { block: pauseLoop(file, sessionId, ctx.now()) };
    }
    if (command.name === "resume") {
      const { loops } = scanLoops(root, ctx.env);
      const file =
        typeof options.name === "string"
          ? namedLoopFile(root, options.name, "/loop-resume")
          : (loops.find((loop) => loop.owner === sessionId)?.file ??
            chooseSessionLoop(loops, sessionId)?.file ??
            loopFileAt(root, "default"));
      const resumed = resumeLoop(file, sessionId, ctx.now(), options.force === true, readClaudePid(ctx.env), ctx.env);
      return { systemMessage: resumed.message, additionalContext: resumed.context };
    }
    if (command.name === "report") {
      const name = typeof options.name === "string" ? options.name : undefined;
      const { model } = readReport(root, name, "/loop-report", ctx.env);
      // Answered by the hook itself, as /loop-status: no model turn.
      return { block: renderReportSummary(model, renderCliCommand(ctx.packageRoot), name) };
    }
    const status = readStatus(root, ctx.env, ctx.now(), sessionId, {
      name: typeof options.name === "string" ? options.name : undefined,
      all: options.all === true,
    });
    return { block: status.text };
  } catch (error) {
    return { block: describe(error) };
  }
}
