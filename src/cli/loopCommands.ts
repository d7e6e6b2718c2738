// `start`, `stop` and `status` from a terminal (or a `!` line): the same code the slash commands use.
import { parseCliArgs } from "../core/parseCliArgs.js";
import { parseStartArgv } from "../core/parseStartArgs.js";
import { renderStartUsage } from "../core/renderStart.js";
import { EXIT, type CliContext } from "./context.js";
import { locateLoop } from "./locate.js";
import { startLoop } from "./start.js";
import { readStatus } from "./status.js";
import { stopLoop } from "./stop.js";

const sessionOf = (ctx: CliContext) => ctx.env.CLAUDE_CODE_SESSION_ID || undefined;

export function runStart(argv: string[], ctx: CliContext): number {
  const request = parseStartArgv(argv);
  if (request.help) {
    ctx.out(`${renderStartUsage()}\n`);
    return EXIT.ok;
  }
  const where = locateLoop(ctx.env, undefined, ctx.cwd);
  const started = startLoop(request, {
    where,
    env: ctx.env,
    sessionId: sessionOf(ctx),
    now: ctx.now(),
    packageRoot: ctx.packageRoot,
  });
  ctx.err(`${started.summary}\n`);
  ctx.out(`${started.context}\n`);
  return EXIT.ok;
}

export function runStop(argv: string[], ctx: CliContext): number {
  parseCliArgs("stop", argv, {});
  const stopped = stopLoop(locateLoop(ctx.env, undefined, ctx.cwd), ctx.now(), sessionOf(ctx));
  ctx.out(`${stopped.message}\n`);
  return EXIT.ok;
}

export function runStatus(argv: string[], ctx: CliContext): number {
  parseCliArgs("status", argv, {});
  ctx.out(`${readStatus(locateLoop(ctx.env, undefined, ctx.cwd), ctx.now(), sessionOf(ctx)).text}\n`);
  return EXIT.ok;
}
