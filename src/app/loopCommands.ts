// `start`, `stop` and `status` from a terminal (or a `!` line): the same code the slash commands use.
import { chooseSessionLoop, type FoundLoop, loopFileAt } from "../core/loopFiles.js";
import { namedLoopFile } from "../core/namedLoopFile.js";
import { parseCliArgs } from "./parseCliArgs.js";
import { parseStartArgv } from "../core/parseStartArgs.js";
import { parseAgainArgs } from "../core/restartRequest.js";
import { LoopError } from "../core/errors.js";
import { renderStartCard, renderStartUsage } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { readClaudePid } from "../io/readClaudePid.js";
import { type Context, EXIT, projectRootOf } from "./context.js";
import { pauseLoop } from "./pauseLoop.js";
import { readStatus } from "./readStatus.js";
import { resumeLoop } from "./resumeLoop.js";
import { restartLoop } from "./restartLoop.js";
import { startLoop } from "./startLoop.js";
import { stopLoop } from "./stopLoop.js";

/** Inside Claude Code (a `!` line) the session is known; in a plain terminal it is not. */
const sessionOf = (ctx: Context) => ctx.env.CLAUDE_CODE_SESSION_ID || undefined;

/** The loop a command acts on: `--name NAME`, else the session's, else the first, else the default file. */
function chooseCommandLoop(command: string, name: unknown, root: string, loops: FoundLoop[], session?: string) {
  if (typeof name === "string") return namedLoopFile(root, name, `continuation-loop ${command}`);
  return chooseSessionLoop(loops, session)?.file ?? loops[0]?.file ?? loopFileAt(root, "default");
}

export function runStart(argv: string[], ctx: Context): number {
  const request = parseStartArgv(argv);
  if (request.help) {
    ctx.out(`${renderStartUsage("continuation-loop start")}\n`);
    return EXIT.ok;
  }
  if (request.card) {
    ctx.err(`continuation-loop: a goal is required.\n${renderStartCard("continuation-loop start")}\n`);
    return EXIT.usage;
  }
  const started = startLoop(request, ctx, projectRootOf(ctx), sessionOf(ctx));
  ctx.err(`${started.summary}\n`);
  ctx.out(`${started.context}\n`);
  return EXIT.ok;
}

export function runRestart(argv: string[], ctx: Context): number {
  const again = parseAgainArgs(["--again", ...argv]);
  if (!again) {
    throw new LoopError("USAGE", `unexpected arguments ${JSON.stringify(argv.join(" "))}`, {
      file: "continuation-loop restart",
      expected: "restart [N] [--force], N the how-many-th most recent finished loop (1 = the last)",
    });
  }
  const started = restartLoop(again.back, again.force, ctx, projectRootOf(ctx), sessionOf(ctx));
  ctx.err(`${started.summary}\n`);
  ctx.out(`${started.context}\n`);
  return EXIT.ok;
}

export function runStop(argv: string[], ctx: Context): number {
  const options = parseCliArgs("stop", argv, { name: "value", all: "flag" });
  const root = projectRootOf(ctx);
  const { loops } = scanLoops(root, ctx.env);
  const session = sessionOf(ctx);
  const targets = options.all
    ? loops.map((loop) => loop.file)
    : [chooseCommandLoop("stop", options.name, root, loops, session)];
  for (const file of targets) ctx.out(`${stopLoop(file, ctx.now(), session).message}\n`);
  if (targets.length === 0) ctx.out("continuation-loop: no loop is running; nothing to stop.\n");
  return EXIT.ok;
}

export function runStatus(argv: string[], ctx: Context): number {
  const options = parseCliArgs("status", argv, { name: "value", all: "flag" });
  const name = typeof options.name === "string" ? options.name : undefined;
  const status = readStatus(projectRootOf(ctx), ctx.env, ctx.now(), sessionOf(ctx), {
    name,
    all: options.all === true,
  });
  ctx.out(`${status.text}\n`);
  return EXIT.ok;
}

export function runResume(argv: string[], ctx: Context): number {
  const options = parseCliArgs("resume", argv, { name: "value", force: "flag" });
  const root = projectRootOf(ctx);
  const session = sessionOf(ctx);
  const { loops } = scanLoops(root, ctx.env);
  const file = chooseCommandLoop("resume", options.name, root, loops, session);
  ctx.out(`${resumeLoop(file, session, ctx.now(), options.force === true, readClaudePid(ctx.env), ctx.env).message}\n`);
  return EXIT.ok;
}

export function runPause(argv: string[], ctx: Context): number {
  const options = parseCliArgs("pause", argv, { name: "value" });
  const root = projectRootOf(ctx);
  const session = sessionOf(ctx);
  const { loops } = scanLoops(root, ctx.env);
  const file = chooseCommandLoop("pause", options.name, root, loops, session);
  ctx.out(`${pauseLoop(file, session, ctx.now())}\n`);
  return EXIT.ok;
}
