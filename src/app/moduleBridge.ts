// What the companion module hands the command hooks through their environment (docs/REFERENCE.md "The
// companion module"). The command hooks stay the engine: each value only adds to what they do without it.
import type { Env } from "../core/loopFiles.js";
import { isSameProcess } from "../core/processRef.js";
import { carryCostOverClear, recordCostFigure, type Runtime } from "../core/sidecar.js";
import { BACKGROUND_LINE, FRESH_LINE, MODULE_ENV, renderStopLine, STOP_ID_PATTERN } from "../core/protocol.js";
import type { HookAnswer } from "./context.js";

/** Far below any spend Claude Code reports: one figure read twice, not two figures. */
const COST_NOISE = 1e-6;

const readFigure = (raw: string | undefined): number | undefined => {
  const figure = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(figure) && figure >= 0 ? figure : undefined;
};

/**
 * The session's cost figure the module handed this Stop, recorded as the status line's would be. The
 * loop's first figure starts from the one its first turn began at, so that turn is counted too. A Claude
 * Code process other than the one of the loop's last Stop (started again by `run` after a crash, a
 * background session respawned, a restart and `--continue`) either counts its session's figure from zero,
 * and the spend so far is carried, even when the new figure is already above the last one; or goes on from
 * the figure it was given back. That process becomes the loop's, so that the spend is carried once whatever
 * this Stop decides.
 */
export function applyModuleCost(runtime: Runtime, env: Env, readProcess: () => string): Runtime {
  const figure = readFigure(env[MODULE_ENV.cost]);
  if (figure === undefined || !env[MODULE_ENV.live]) return runtime;
  return recordCostFigure(
    readCostStart(runtime, readFigure(env[MODULE_ENV.turnCost]), figure, readProcess),
    figure,
    "module",
  );
}

/**
 * What this Stop's figure counts from: the first turn's figure, the spend carried over a new process, or as it was.
 * A new process whose turn began at or above the last figure goes on with the figure it was given back: carrying
 * the spend too would count it twice.
 */
function readCostStart(
  runtime: Runtime,
  before: number | undefined,
  figure: number,
  readProcess: () => string,
): Runtime {
  if (runtime.spend === null)
    return before !== undefined && before <= figure ? recordCostFigure(runtime, before, "module") : runtime;
  if (runtime.owner_pid === "") return runtime;
  const claude = readProcess();
  if (isSameProcess(claude, runtime.owner_pid)) return runtime;
  if (before !== undefined && before >= runtime.spend.figure - COST_NOISE) return { ...runtime, owner_pid: claude };
  return { ...carryCostOverClear(runtime), owner_pid: claude };
}

/**
 * Whether the companion module runs this Stop: it handed a valid Stop id. Then it sends the continuation
 * and can wake the session after a hold for background work (docs/REFERENCE.md "Background work").
 */
export function readModuleStop(env: Env): boolean {
  const id = env[MODULE_ENV.stopId];
  return id !== undefined && STOP_ID_PATTERN.test(id);
}

/**
 * The continuation prompt, with the line that lets the module find where it ends when the module asked
 * for it; the module strips that line and sends the prompt itself, unchanged.
 */
function markForModule(prompt: string, env: Env, fresh: boolean, background: boolean): string {
  const id = env[MODULE_ENV.stopId];
  if (!id || !readModuleStop(env)) return prompt;
  // fresh_context: one more line asks the module to clear the context before it sends the prompt; `--bg`, to
  // send the session to the background with it.
  return `${prompt}${fresh ? FRESH_LINE : ""}${background ? BACKGROUND_LINE : ""}${renderStopLine(id)}\n`;
}

/**
 * The Stop hook's answer that continues a loop. Where the module asked (a valid id), the prompt goes in
 * `additionalContext` with exit 0: Claude Code folds the Stop hooks' answers into one, a block standing for
 * all of them, so a block of ours would hide another hook's block from the module; our context beside it
 * leaves both. Elsewhere, exit 2 with the prompt on stderr.
 */
export function renderContinuationAnswer(
  prompt: string,
  env: Env,
  fresh = false,
  notice?: string,
  background = false,
): HookAnswer {
  const marked = markForModule(prompt, env, fresh, background);
  const told = notice === undefined ? undefined : { systemMessage: notice };
  if (marked === prompt) return { exitCode: 2, ...(told && { json: told }), stderr: prompt };
  const json = { ...told, hookSpecificOutput: { hookEventName: "Stop", additionalContext: marked } };
  return { exitCode: 0, json, stderr: "" };
}

/** Why the module never runs on the install route (docs/REFERENCE.md "The companion module"): it comes with the plugin. */
export const INSTALL_ROUTE_NO_MODULE =
  "loads with the plugin route only (claude --plugin-dir or the marketplace), not with the hooks continuation-loop install copied into this project";

/**
 * doctor's line about the module: live, and on which Claude Code; or why not (`installRoute`: the project runs the
 * installed hooks, not the plugin); or why it cannot say. `cli` runs the helper.
 */
export function checkModule(env: Env, cli: string, installRoute: boolean): { level: "ok" | "warn"; text: string } {
  const version = env[MODULE_ENV.live];
  if (version)
    return {
      level: "ok",
      text: `the companion module is live on Claude Code ${version}: quiet continuations, the band, mid-turn /loop-stop, /loop-pause, /loop-status, and max_cost from Claude Code's own figures`,
    };
  if (installRoute)
    return {
      level: "ok",
      text: `the companion module is not live here: it ${INSTALL_ROUTE_NO_MODULE}; the command hooks run the loop`,
    };
  if (env.CLAUDECODE === "1")
    return {
      level: "ok",
      text: "the companion module is not live in this session (Claude Code before 2.1.287, CONTINUATION_LOOP_MODULE=0, --safe-mode or a policy): the command hooks run the loop",
    };
  return {
    level: "ok",
    text: `the companion module runs inside Claude Code 2.1.287 or later; run \`!${cli} doctor\` there to see whether it is live`,
  };
}

/** Whether the module hands this session's Stops Claude Code's cost figures. */
export const readModuleLive = (env: Env): boolean => Boolean(env[MODULE_ENV.live]);
