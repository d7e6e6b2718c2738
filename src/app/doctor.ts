import { existsSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS_DIR } from "../core/installLayout.js";
import { parseState } from "../core/parseState.js";
import { listStrayLoopFiles, scanLoops } from "../io/listLoops.js";
import { readPathNode } from "../io/readPathNode.js";
import { readStateFile } from "../io/readStateFile.js";
import { readSettingsSources } from "../io/readSettingsFiles.js";
import { renderHooksOff } from "../core/hooksOff.js";
import { decideProjectHooksOff } from "./readHooksOff.js";
import type { CommandCall } from "./commandTable.js";
import { EXIT } from "./context.js";
import {
  blockCap,
  checkEvent,
  checkInstalled,
  checkState,
  readInstallRoute,
  readPluginEnabled,
  readStopTimeouts,
  readPermissionMode,
  type Check,
  checkCostSource,
  checkPathNode,
} from "./doctorChecks.js";
import { packageVersion, readManifest } from "./installFiles.js";
import { SLASH_COMMAND_FILES, SLASH_NAMES } from "./loopCommands.js";
import { checkModule, readModuleLive } from "./moduleBridge.js";
import { renderPermissionNote } from "../core/renderBackground.js";
import { renderCliCommand } from "./renderCliCommand.js";

/** `doctor [--project DIR]`: is everything in place for a loop to run here? Exit 1 when something is broken. */
export function runDoctor({ root, ctx }: CommandCall): number {
  const checks: Check[] = [];
  const cli = renderCliCommand(ctx.packageRoot);

  // This command runs only on a Node the hooks accept (src/entries/oldNode.ts); the hooks run the one on PATH.
  checks.push({ level: "ok", text: `node ${process.version} runs this command` });
  checks.push(checkPathNode(readPathNode(ctx.env)));
  checks.push(checkBundles(ctx.packageRoot));

  const sources = readSettingsSources(root, ctx.env, ctx.home);
  for (const s of sources) if (s.error) checks.push({ level: "FAIL", text: `${s.name}: ${s.error}` });
  const off = decideProjectHooksOff(root, sources);
  // A disabled plugin still runs under --plugin-dir, which doctor cannot see.
  if (off) checks.push({ level: off.field === "disableAllHooks" ? "FAIL" : "warn", text: renderHooksOff(off) });
  const pluginEnabled = readPluginEnabled(sources);
  if (pluginEnabled) checks.push({ level: "ok", text: "the continuation-loop plugin is enabled in settings" });
  checks.push(
    ...checkEvent("Stop", sources, root, pluginEnabled, cli),
    ...checkEvent("UserPromptSubmit", sources, root, pluginEnabled, cli),
  );

  const manifest = readManifest(root);
  if (manifest) {
    checks.push(...checkInstalled(manifest, root, packageVersion(ctx.packageRoot)));
    const missing = SLASH_COMMAND_FILES.filter((f) => !existsSync(join(root, COMMANDS_DIR, f)));
    const slash = SLASH_NAMES.map((name) => `/loop-${name}`).join(", ");
    const listed = missing.length
      ? `missing from ${COMMANDS_DIR}: ${missing.join(", ")} (run install again)`
      : `${slash} in ${COMMANDS_DIR}`;
    checks.push({ level: missing.length ? "FAIL" : "ok", text: `slash commands ${listed}` });
  }

  const withCost = scanLoops(root, ctx.env).loops.filter((loop) => {
    const read = readStateFile(loop.file.statePath, loop.file.shown);
    try {
      return read.kind === "found" && parseState(read.text).max_cost !== undefined;
    } catch {
      return false;
    }
  }).length;
  const installRoute = readInstallRoute(root, sources);
  checks.push(checkModule(ctx.env, cli, installRoute));
  // A loop left alone stops at the first permission prompt nobody answers (README "Leave it running").
  const mode = readPermissionMode(sources);
  const asks = renderPermissionNote(mode);
  checks.push(
    asks
      ? { level: "warn", text: asks.replace(/^continuation-loop: /, "") }
      : { level: "ok", text: `permission mode ${mode}: a loop left alone is not stopped by a permission prompt` },
  );
  // From a terminal on the plugin route the module cannot be seen, but may run in the loop's session.
  const moduleMayRun = !installRoute && ctx.env.CLAUDECODE !== "1";
  checks.push(checkCostSource(sources, withCost, readModuleLive(ctx.env), moduleMayRun, cli));
  const cap = blockCap(ctx.env, sources);
  for (const { file } of scanLoops(root, ctx.env).loops)
    checks.push(...checkState(file, cap, ctx.env, cli, installRoute, readStopTimeouts(sources, root)));
  if (scanLoops(root, ctx.env).loops.length === 0)
    checks.push({ level: "ok", text: "no loop is running in this project" });
  if (!ctx.env.CONTINUATION_LOOP_FILE) for (const entry of listStrayLoopFiles(root)) checks.push(checkStray(entry));

  const fails = checks.filter((c) => c.level === "FAIL").length;
  const warns = checks.filter((c) => c.level === "warn").length;
  const lines = [
    `continuation-loop ${packageVersion(ctx.packageRoot)} doctor: ${root}`,
    ...checks.map((c) => `  ${c.level.padEnd(4)}  ${c.text}`),
    `${renderCount(fails, "problem")}, ${renderCount(warns, "warning")}.`,
  ];
  ctx.out(`${lines.join("\n")}\n`);
  return fails ? EXIT.failed : EXIT.ok;
}

/** "no problems", "1 warning", "3 warnings". */
const renderCount = (n: number, what: string): string => `${n === 0 ? "no" : n} ${what}${n === 1 ? "" : "s"}`;

/** A file named like a loop's whose name is none: no loop runs from it. */
function checkStray(entry: string): Check {
  const path = `.claude/${entry}`;
  const shown = /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
  return {
    level: "warn",
    text: `${shown} is no loop's state file, so no loop runs from it: a loop's name (continuation-loop.NAME.local.md) is 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit; rename it, e.g. to continuation-loop.my-loop.local.md`,
  };
}

/** What Claude Code runs from this copy of the plugin: a hook whose bundle is gone exits 0 and the loop stops. */
const BUNDLES = [
  "stop.js",
  "prompt.js",
  "session.js",
  "active/stop.js",
  "active/prompt.js",
  "active/session.js",
  "active/command.js",
];

/** Every bundle beside this command (an update cut short leaves some out: docs/REFERENCE.md "When the hooks do not run"). */
function checkBundles(packageRoot: string): Check {
  const missing = BUNDLES.filter((f) => !existsSync(join(packageRoot, "hooks", f)));
  return missing.length
    ? {
        level: "FAIL",
        text: `${join(packageRoot, "hooks")} misses ${missing.join(", ")}: the hooks that run them do nothing, so no loop continues. Expected every bundle of the release: install the plugin (or the package) again`,
      }
    : { level: "ok", text: `the hooks' bundles are all in ${join(packageRoot, "hooks")}` };
}
