import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { LoopError } from "../core/errors.js";
import { addGitignoreLines } from "../core/gitignoreLines.js";
import { MANIFEST, rewriteHookTable, SETTINGS, type Manifest } from "../core/installLayout.js";
import {
  addHooks,
  parseSettings,
  readStaleHooks,
  removeHooks,
  renderSettings,
  type SettingsRecord,
} from "../core/settingsHooks.js";
import { type CommandCall, say } from "./commandTable.js";
import { SLASH_COMMAND_FILES } from "./loopCommands.js";
import {
  missingDirs,
  packageVersion,
  readHookTable,
  readManifest,
  readText,
  sha256,
  sourceFiles,
  writeThroughLink,
} from "./installFiles.js";

interface Write {
  to: string;
  data: Buffer | string;
}

/** Checks the target folder before anything is written. */
function checkProject(root: string, packageRoot: string): void {
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new LoopError("INSTALL_FAILED", "the project folder does not exist", {
      file: root,
      expected: "an existing folder (--project DIR)",
    });
  }
  // The copy in a project (a teammate's clone holds it) has no hooks.json or commands of its own to copy.
  if (existsSync(join(packageRoot, "install.json"))) {
    throw new LoopError("INSTALL_FAILED", "this helper is the copy install put into a project, which cannot install", {
      file: join(packageRoot, "hooks", "cli.js"),
      expected: "the helper of a continuation-loop checkout (node /path/to/continuation-loop/hooks/cli.js install)",
    });
  }
  if (realpathSync(root) === realpathSync(packageRoot)) {
    throw new LoopError(
      "INSTALL_FAILED",
      "this is the continuation-loop checkout itself, which already uses its own hooks",
      { file: root, expected: "another project (--project DIR)" },
    );
  }
}

/** The install's record: what the earlier install added and this one kept, and what this one added. */
function mergeSettingsRecord(
  previous: SettingsRecord | null | undefined,
  next: SettingsRecord,
  stale: SettingsRecord["added"],
  created: boolean,
): SettingsRecord | null {
  if (!previous && next.added.length === 0) return null;
  return {
    created: previous?.created ?? created,
    hooksKeyCreated: (previous?.hooksKeyCreated ?? false) || next.hooksKeyCreated,
    eventsCreated: [...new Set([...(previous?.eventsCreated ?? []), ...next.eventsCreated])],
    added: [...(previous?.added ?? []).filter((entry) => !stale.includes(entry)), ...next.added],
  };
}

/**
 * `install [--project DIR]`: copy the bundles, templates and commands into DIR/.claude, merge the hook
 * registration into .claude/settings.json, ignore the loop's private files in .gitignore. Everything is
 * read and checked first (a malformed settings file stops it with nothing changed); a second run writes
 * nothing.
 */
export function runInstall({ root, ctx }: CommandCall): number {
  checkProject(root, ctx.packageRoot);
  const previous = readManifest(root);

  const settingsText = readText(join(root, SETTINGS));
  const settings = parseSettings(settingsText, join(root, SETTINGS));
  const table = rewriteHookTable(readHookTable(ctx.packageRoot));
  // An earlier version's groups that this one writes differently are replaced, never doubled.
  const staleHooks = readStaleHooks(previous?.settings, table);
  const kept = removeHooks(settings, { created: false, hooksKeyCreated: false, eventsCreated: [], added: staleHooks });
  const merged = addHooks(kept, table);

  const writes: Write[] = [];
  const files: Record<string, string> = {};
  for (const file of sourceFiles(ctx.packageRoot, SLASH_COMMAND_FILES)) {
    const data = readFileSync(file.from);
    files[file.to] = sha256(data);
    const current = existsSync(join(root, file.to)) ? readFileSync(join(root, file.to)) : undefined;
    if (current?.equals(data)) continue;
    if (current && previous?.files[file.to] !== sha256(current)) {
      throw new LoopError(
        "INSTALL_CONFLICT",
        "a file that continuation-loop did not install, or that was changed since, is in the way",
        { file: file.to, expected: "no such file (rename or remove yours, then run install again)" },
      );
    }
    writes.push({ to: file.to, data });
  }
  const writesSettings = merged.record.added.length > 0 || staleHooks.length > 0;
  if (writesSettings) writes.push({ to: SETTINGS, data: renderSettings(merged.settings, settingsText) });
  // The user's own text, kept from the first install that changed it, so uninstall can give it back as it was.
  const settingsBefore = previous?.settings ? previous.settingsBefore : writesSettings ? settingsText : undefined;
  const gitignoreText = readText(join(root, ".gitignore"));
  const ignore = addGitignoreLines(gitignoreText);
  if (ignore.record) writes.push({ to: ".gitignore", data: ignore.text });

  // Files of an older install that this version no longer has (e.g. renamed chunks).
  const stale = Object.keys(previous?.files ?? {}).filter(
    (f) => !(f in files) && existsSync(join(root, f)) && sha256(readFileSync(join(root, f))) === previous?.files[f],
  );

  const dirs = [...(previous?.dirs ?? [])];
  for (const write of [...writes, { to: MANIFEST }]) {
    for (const dir of missingDirs(root, dirname(write.to))) if (!dirs.includes(dir)) dirs.push(dir);
  }
  const manifest: Manifest = {
    version: packageVersion(ctx.packageRoot),
    files,
    dirs,
    settings: mergeSettingsRecord(previous?.settings, merged.record, staleHooks, settingsText === undefined),
    ...(settingsBefore !== undefined && { settingsBefore }),
    gitignore: [...(previous?.gitignore ?? []), ...(ignore.record ? [ignore.record] : [])],
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  if (readText(join(root, MANIFEST)) !== manifestText) writes.push({ to: MANIFEST, data: manifestText });

  for (const write of writes) {
    mkdirSync(dirname(join(root, write.to)), { recursive: true });
    writeThroughLink(join(root, write.to), write.data);
  }
  for (const file of stale) unlinkSync(join(root, file));
  // Folders install made for those files (an older build's hooks/chunks/), once empty; deepest first.
  for (const dir of [...dirs].reverse())
    if (stale.some((file) => file.startsWith(`${dir}/`)) && readdirSync(join(root, dir)).length === 0)
      rmdirSync(join(root, dir));

  if (writes.length === 0 && stale.length === 0) {
    return say({ ctx }, `continuation-loop is already installed in ${root}; nothing changed.`);
  }
  const lines = [`continuation-loop ${manifest.version} installed in ${root}:`];
  const copied = writes.filter((w) => w.to in files).length;
  if (copied) lines.push(`  copied ${copied} file(s) into .claude/continuation-loop/ and .claude/commands/`);
  const replaced = new Set(staleHooks.map(({ event }) => event));
  // One line per event: SessionStart is registered once per matcher (startup|resume, compact, clear).
  for (const event of new Set(merged.record.added.map((entry) => entry.event)))
    lines.push(`  ${replaced.has(event) ? "updated" : "registered"} the ${event} hook in ${SETTINGS}`);
  for (const event of replaced)
    if (!merged.record.added.some((entry) => entry.event === event))
      lines.push(`  removed the previous version's ${event} hook from ${SETTINGS}`);
  if (ignore.record) lines.push(`  added ${ignore.record.lines.length - 1} line(s) to .gitignore`);
  if (stale.length) lines.push(`  removed ${stale.length} file(s) of the previous version`);
  lines.push(
    "Start Claude Code in the project and type /loop-start [options] GOAL. Undo with: continuation-loop uninstall",
  );
  return say({ ctx }, lines.join("\n"));
}
