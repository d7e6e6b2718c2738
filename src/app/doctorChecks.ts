import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { LoopError } from "../core/errors.js";
import { MANIFEST, type Manifest } from "../core/installLayout.js";
import { parseState } from "../core/parseState.js";
import { renderMistyped } from "../core/mistypedFields.js";
import { commandsOf } from "../core/settingsHooks.js";
import { decideStopTimeoutShort, readPluginSetting, type StopTimeout } from "../core/hooksOff.js";
import { readSettingsSources, type SettingsSource } from "../io/readSettingsFiles.js";
import { type Env, type LoopFile, renderHistoryShown } from "../core/loopFiles.js";
import { acceptsNodeVersion, NODE_MIN } from "../core/nodeSupport.js";
import type { PathNode } from "../io/readPathNode.js";
import { readHistoryUnwritable } from "../io/history.js";
import { readStateSettled } from "../io/readStateFile.js";
import { readGitTracking } from "../io/readTreeState.js";
import { checkFreshContext } from "./freshContext.js";
import { checkImprovement } from "./doctorImprovement.js";
import { readModuleLive } from "./moduleBridge.js";
import { sha256 } from "./installFiles.js";
import { renderLetGitAnswer } from "./trustStateFile.js";
import { renderShellWord } from "../core/renderShellWord.js";

type Level = "ok" | "warn" | "FAIL";
export interface Check {
  level: Level;
  text: string;
}

/**
 * The node the hooks run: the first on PATH (which may not be the one running this command). Without a
 * usable one, the hooks stay off and say so (docs/REFERENCE.md "No Node, or an old one").
 */
export function checkPathNode(found: PathNode | undefined): Check {
  const fix = `install Node.js ${NODE_MIN} or later where the PATH Claude Code starts with finds it`;
  if (!found)
    return {
      level: "FAIL",
      text: `no node on PATH: the hooks cannot run (Claude Code says so once per session); ${fix}`,
    };
  if (found.version === undefined)
    return {
      level: "FAIL",
      text: `node on PATH (${found.path}) does not run: node --version ${found.failure ?? "printed no version"}. The hooks stay off until it runs (Claude Code says so once per session); a version manager's shim (asdf, mise, nodenv) needs a version set for this folder, or ${fix}`,
    };
  if (!acceptsNodeVersion(found.version))
    return {
      level: "FAIL",
      text: `node on PATH (${found.path}) is v${found.version}: the hooks need ${NODE_MIN} or later and stay off until then; ${fix}`,
    };
  return {
    level: "ok",
    text: `node on PATH, which the hooks run: ${found.path} v${found.version} (needs ${NODE_MIN} or later)`,
  };
}

/** The script a hook command runs, with $CLAUDE_PROJECT_DIR expanded; undefined for plugin paths. */
function scriptOf(command: string, root: string): string | undefined {
  // The bundle node runs: past the guard's `command -v node` (hooks/hooks.json), a path ending in .js.
  const match = /node(?:\.exe)?["']?\s+(?:"([^"]+\.js)"|'([^']+\.js)'|([^\s"']+\.js))/.exec(command);
  const raw = match?.[1] ?? match?.[2] ?? match?.[3];
  if (!raw || raw.includes("CLAUDE_PLUGIN_ROOT")) return undefined;
  const path = raw.replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR/g, root);
  return isAbsolute(path) ? path : resolve(root, path);
}

/** Is this registered command one of ours (a continuation-loop bundle)? */
function isOurs(command: string, root: string): boolean {
  if (!/(stop|prompt)\.js/.test(command)) return false;
  if (command.includes("continuation-loop")) return true;
  const script = scriptOf(command, root);
  return script !== undefined && existsSync(join(dirname(script), "cli.js"));
}

/** The continuation-loop plugin's id (`continuation-loop@MARKETPLACE`) where a settings file enables it. */
function readEnabledPluginId(sources: SettingsSource[]): string | undefined {
  const setting = readPluginSetting(sources);
  return setting?.on ? setting.id : undefined;
}

/** Is the continuation-loop plugin enabled in one of these settings files (a marketplace install)? */
export function readPluginEnabled(sources: SettingsSource[]): boolean {
  return readEnabledPluginId(sources) !== undefined;
}

/**
 * The install route: the project runs the hooks `continuation-loop install` copied (its install record is there) and
 * no settings file enables the plugin. The companion module comes with the plugin only, so it never loads here.
 */
export function readInstallRoute(root: string, sources: SettingsSource[]): boolean {
  return existsSync(join(root, MANIFEST)) && !readPluginEnabled(sources);
}

/** Will Claude Code run our Stop hook here without `--plugin-dir`: the plugin enabled, or the hooks installed? */
export function readStopHookRegistered(root: string, env: Env, home: string): boolean {
  const sources = readSettingsSources(root, env, home);
  return (
    readPluginEnabled(sources) ||
    sources.some((s) => commandsOf(s.settings?.hooks?.Stop).some((command) => isOurs(command, root)))
  );
}

/**
 * The permission mode Claude Code will run in: `--permission-mode` (or `--dangerously-skip-permissions`) among its
 * arguments, else `permissions.defaultMode` of the first settings file that sets it (local, project, user), else
 * `default`.
 */
export function readPermissionMode(sources: SettingsSource[], claudeArgs: readonly string[] = []): string {
  const at = claudeArgs.findIndex((arg) => arg === "--permission-mode" || arg.startsWith("--permission-mode="));
  const given = at < 0 ? undefined : (claudeArgs[at]?.split("=")[1] ?? claudeArgs[at + 1]);
  if (given) return given;
  if (claudeArgs.includes("--dangerously-skip-permissions")) return "bypassPermissions";
  const order = [".claude/settings.local.json", ".claude/settings.json", "user settings.json"];
  for (const name of order) {
    const permissions = sources.find((s) => s.name === name)?.settings?.permissions as
      | { defaultMode?: unknown }
      | undefined;
    if (typeof permissions?.defaultMode === "string") return permissions.defaultMode;
  }
  return "default";
}

/** The `timeout` each settings file gives a Stop hook of ours (install writes the plugin's own). */
export function readStopTimeouts(sources: SettingsSource[], root: string): StopTimeout[] {
  return sources.flatMap((s) =>
    (s.settings?.hooks?.Stop ?? [])
      .flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : []))
      .filter((h) => typeof h?.command === "string" && isOurs(h.command, root) && typeof h.timeout === "number")
      .map((h) => ({ file: s.name, seconds: h.timeout as number })),
  );
}

/** Registration of one event across the settings files and the plugin. */
export function checkEvent(
  event: string,
  sources: SettingsSource[],
  root: string,
  pluginEnabled: boolean,
  cli: string,
): Check[] {
  const found = sources.flatMap((s) =>
    commandsOf(s.settings?.hooks?.[event])
      .filter((c) => isOurs(c, root))
      .map((command) => ({ source: s.name, command })),
  );
  const checks: Check[] = [];
  for (const { source, command } of found) {
    const script = scriptOf(command, root);
    if (script && !existsSync(script))
      checks.push({
        level: "FAIL",
        text: `${event} hook in ${source} points at a missing file: ${script} (run install again)`,
      });
    else checks.push({ level: "ok", text: `${event} hook registered in ${source}${script ? ` → ${script}` : ""}` });
  }
  const count = found.length + (pluginEnabled ? 1 : 0);
  if (count > 1) {
    const plugin = readEnabledPluginId(sources);
    const fix =
      plugin && found.length
        ? `keep one route: ${cli} uninstall --project ${renderShellWord(root)}, or claude plugin disable ${plugin}`
        : `keep one: remove the others from ${[...new Set(found.map((f) => f.source))].join(", ")}`;
    checks.push({
      level: "FAIL",
      text: `${event} hook is registered ${count} times (${[...found.map((f) => f.source), ...(pluginEnabled ? ["the enabled plugin"] : [])].join(", ")}): it runs twice per event; ${fix}`,
    });
  }
  if (count === 0) {
    checks.push({
      level: "warn",
      text: `no ${event} hook of continuation-loop in this project's settings: fine with the plugin (claude --plugin-dir … or a marketplace install), otherwise run: ${cli} install`,
    });
  }
  return checks;
}

/** Installed files still as install wrote them, and from this version. */
export function checkInstalled(manifest: Manifest, root: string, version: string): Check[] {
  const missing = Object.keys(manifest.files).filter((f) => !existsSync(join(root, f)));
  const changed = Object.entries(manifest.files)
    .filter(([f, hash]) => existsSync(join(root, f)) && sha256(readFileSync(join(root, f))) !== hash)
    .map(([f]) => f);
  const checks: Check[] = [];
  if (missing.length)
    checks.push({ level: "FAIL", text: `installed files are missing: ${missing.join(", ")} (run install again)` });
  if (changed.length)
    checks.push({ level: "warn", text: `installed files changed since install: ${changed.join(", ")}` });
  if (!missing.length && !changed.length)
    checks.push({
      level: "ok",
      text: `${Object.keys(manifest.files).length} installed files as installed (version ${manifest.version})`,
    });
  if (version !== "unknown" && manifest.version !== version)
    checks.push({
      level: "warn",
      text: `installed version ${manifest.version} differs from this continuation-loop (${version}): run install again to update`,
    });
  return checks;
}

/** The block cap Claude Code applies: env, then the settings files' env blocks; 8 when unset. */
export function blockCap(env: Env, sources: SettingsSource[]): number {
  const raw =
    env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP ??
    sources
      .map((s) => (s.settings?.env as Record<string, unknown> | undefined)?.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)
      .find((v) => v !== undefined);
  const cap = Number(raw ?? 8);
  return Number.isFinite(cap) && cap >= 0 ? cap : 8;
}

/**
 * A state file git tracks came with the repository: no session claims it (docs/REFERENCE.md "How a loop ends"),
 * which is the first thing to say of a loop where "nothing happens".
 */
function checkTracking(where: LoopFile): Check[] {
  const tracking = readGitTracking(where.root, where.statePath);
  if (tracking.kind === "tracked")
    return [
      {
        level: "warn",
        text: `${where.shown} is tracked by git, so it came with the repository: no session claims it, and its until, verify and metric commands never run (git rm --cached ${where.shown} to make it your own)`,
      },
    ];
  if (tracking.kind === "unknown")
    return [
      {
        level: "warn",
        text: `git could not say whether ${where.shown} came with the repository (${tracking.why}): no session claims it, and its until, verify and metric commands never run. Expected ${renderLetGitAnswer(where.root, tracking.code)}`,
      },
    ];
  return [];
}

/**
 * The hooks save the loop by a lock, a temp file and a rename in the state file's folder, and append to the history:
 * a folder or history this user cannot write (read-only, another user's, a read-only mount) is said before a Stop.
 */
function checkWritable(where: LoopFile): Check[] {
  const folder = `${dirname(where.shown)}/`;
  try {
    accessSync(dirname(where.statePath), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return [
      {
        level: "FAIL",
        text: `${folder} cannot be written (${code}): the Stop hook cannot save ${where.shown}, so the loop never continues. Expected a folder the user running Claude Code can write (chown or chmod u+w it, or a writable mount)`,
      },
    ];
  }
  const history = readHistoryUnwritable(where.historyPath);
  if (!history) return [];
  return [
    {
      level: "warn",
      text: `${renderHistoryShown(where)} cannot be written (${history}): the loop goes on, but the history and the report miss its turns (chown or chmod u+w it, or delete it)`,
    },
  ];
}

/** The state file: valid, one a session may claim, and able to run its course under the block cap. */
export function checkState(
  where: LoopFile,
  cap: number,
  env: Env,
  cli: string,
  installRoute: boolean,
  stopTimeouts: StopTimeout[] = [],
): Check[] {
  let trust: Check[] = [];
  try {
    const state = readStateSettled(where.statePath, where.shown, where.sidecarPath, (text) => {
      trust = checkTracking(where);
      return parseState(text, where.shown);
    });
    if (!state) return [{ level: "ok", text: `no loop is running (no ${where.shown})` }];
    const checks: Check[] = [
      {
        level: "ok",
        text: `${where.shown} is valid: iteration ${state.iteration_count}/${state.max_iterations}, ${state.active ? "active" : "paused"}, owner ${state.session_id ?? "not bound yet"}`,
      },
      ...trust,
      ...checkWritable(where),
    ];
    const blocks = state.max_iterations - state.iteration_count;
    // The companion module sends each continuation as a prompt, which the cap does not count (README "Troubleshooting").
    if (cap > 0 && blocks > cap && !readModuleLive(env)) {
      const module = installRoute
        ? ""
        : " With the companion module (the plugin on Claude Code 2.1.287 or later) continuations are prompts, which the cap does not count.";
      checks.push({
        level: "warn",
        text: `max_iterations ${state.max_iterations} allows ${blocks} more continuations, but Claude Code ends a turn after ${cap} consecutive Stop-hook blocks in which no tool ran: a loop whose turns run no tools stops there.${module} Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 (off) or a higher number in the environment or the settings' "env", or lower max_iterations.`,
      });
    }
    for (const line of renderMistyped(state.mistyped, where.shown)) checks.push({ level: "warn", text: line });
    checks.push(...checkImprovement(state, where, env));
    for (const timeout of stopTimeouts) {
      const short = decideStopTimeoutShort(state, where.shown, timeout);
      if (short) checks.push({ level: "warn", text: short });
    }
    checks.push(...checkFreshContext(state, env, cli, installRoute));
    if (state.notes_file && /^\.claude[\\/]/.test(state.notes_file)) {
      checks.push({
        level: "warn",
        text: `notes_file ${state.notes_file} is under .claude/, which Claude may not edit without asking; use e.g. SHARED_TASK_NOTES.md`,
      });
    }
    return checks;
  } catch (error) {
    return [{ level: "FAIL", text: error instanceof LoopError ? error.describe() : String(error) }, ...trust];
  }
}

/** Is the plugin's status line configured (the one that hands the loop Claude Code's cost figures)? */
export function readCostSource(sources: SettingsSource[]): string | undefined {
  for (const s of sources) {
    const line = s.settings?.statusLine as { command?: unknown } | undefined;
    const command = typeof line?.command === "string" ? line.command : "";
    if (/\bstatusline\b/.test(command) && /continuation-loop|cli\.js/.test(command)) return s.name;
  }
  return undefined;
}

/** What max_cost can see: said plainly when no cost figure can reach the loop (README "Spend limits"). */
const NO_COST_SOURCE =
  "max_cost needs the plugin's status line, which hands the loop Claude Code's cost figures; none is configured (README \"Spend limits\"), so this loop is bounded by its other limits only";
/**
 * The same, said from a terminal on the plugin route: the companion module, which cannot be seen from here,
 * hands the loop the figures wherever Claude Code 2.1.287 or later runs it.
 */
const MODULE_COST_SOURCE =
  "max_cost takes Claude Code's cost figures from the companion module (the plugin on Claude Code 2.1.287 or later) or from the plugin's status line, and no status line is configured (README \"Spend limits\")";

/** Why max_cost may see no figure; `moduleMayRun`: said where the companion module may yet hand them over. */
export const renderNoCostSource = (moduleMayRun: boolean): string =>
  moduleMayRun
    ? `${MODULE_COST_SOURCE}: where the module does not run, this loop is bounded by its other limits only`
    : NO_COST_SOURCE;

/**
 * The `statusLine` entry to paste into a settings file, its command the helper's (`cli`, quoted for the shell
 * Claude Code runs it in) as a JSON string: a folder named with quotes or `$` needs both escapes.
 */
const renderStatusLineEntry = (cli: string): string =>
  `"statusLine": ${JSON.stringify({ type: "command", command: `${cli} statusline`, refreshInterval: 1 })}`;

/**
 * A warning only when a loop of the project sets max_cost; otherwise the fact, plainly. `moduleMayRun`: the
 * plugin route, seen from outside Claude Code, where the module may hand the loop the figures. With no status
 * line, the entry that adds it.
 */
export function checkCostSource(
  sources: SettingsSource[],
  loopsWithMaxCost: number,
  moduleLive = false,
  moduleMayRun = false,
  cli?: string,
): Check {
  if (moduleLive) return { level: "ok", text: "the companion module records Claude Code's cost figures for max_cost" };
  const where = readCostSource(sources);
  if (where) return { level: "ok", text: `the status line records Claude Code's cost figures for max_cost (${where})` };
  const add = cli === undefined ? "" : `; to add it, put in .claude/settings.json: ${renderStatusLineEntry(cli)}`;
  if (loopsWithMaxCost > 0)
    return {
      level: "warn",
      text: `${
        moduleMayRun
          ? `${MODULE_COST_SOURCE}: where the module does not run, the max_cost of ${loopsWithMaxCost} loop(s) is never reached`
          : `${NO_COST_SOURCE}; without it the max_cost of ${loopsWithMaxCost} loop(s) is never reached`
      }${add}`,
    };
  return {
    level: "ok",
    text: `${
      moduleMayRun
        ? "no status line of the plugin: a loop's max_cost sees Claude Code's cost figures only through the companion module"
        : "no status line of the plugin: a loop's max_cost could not see Claude Code's cost figures"
    }${add}`,
  };
}
