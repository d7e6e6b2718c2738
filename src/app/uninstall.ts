import { existsSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { removeGitignoreLines } from "../core/gitignoreLines.js";
import { MANIFEST, SETTINGS } from "../core/installLayout.js";
import { parseSettings, removeHooks, renderSettings, type Settings } from "../core/settingsHooks.js";
import { renderShellWord } from "../core/renderShellWord.js";
import { scanLoops } from "../io/listLoops.js";
import { type CommandCall, say } from "./commandTable.js";
import { readManifest, readText, sha256, writeThroughLink } from "./installFiles.js";

/** The settings text install found, parsed; undefined when the record holds none (an older install) or it is unreadable. */
function readSettingsBefore(text: string | undefined, file: string): { text: string; settings: Settings } | undefined {
  if (text === undefined) return undefined;
  try {
    return { text, settings: parseSettings(text, file) };
  } catch {
    return undefined;
  }
}

/**
 * `uninstall [--project DIR]`: undo exactly what install recorded in its manifest. Hook groups, .gitignore
 * lines and files are removed only if they are still what install wrote; the loop's state and history
 * are the user's and stay.
 */
export function runUninstall({ root, ctx }: CommandCall): number {
  const manifest = readManifest(root);
  if (!manifest) {
    return say({ ctx }, `continuation-loop is not installed in ${root} (no ${MANIFEST}); nothing to remove.`);
  }
  // Read and check everything first: a malformed settings file stops the uninstall with nothing changed.
  const settingsPath = join(root, SETTINGS);
  const settingsText = readText(settingsPath);
  const settings =
    manifest.settings && settingsText !== undefined ? parseSettings(settingsText, settingsPath) : undefined;
  const lines = [`continuation-loop uninstalled from ${root}:`];

  if (manifest.settings && settings && settingsText !== undefined) {
    const next = removeHooks(settings, manifest.settings);
    const before = readSettingsBefore(manifest.settingsBefore, settingsPath);
    if (manifest.settings.created && Object.keys(next).length === 0) {
      unlinkSync(settingsPath);
      lines.push(`  removed ${SETTINGS} (install created it)`);
    } else if (JSON.stringify(next) !== JSON.stringify(settings)) {
      // Nothing but the hooks changed since install: the user's own text, layout and all, goes back.
      const same = before !== undefined && JSON.stringify(before.settings) === JSON.stringify(next);
      writeThroughLink(settingsPath, same ? before.text : renderSettings(next, settingsText));
      lines.push(`  removed the hook registration from ${SETTINGS}`);
    }
  }

  const gitignorePath = join(root, ".gitignore");
  let gitignore = readText(gitignorePath);
  if (gitignore !== undefined && manifest.gitignore.length) {
    const before = gitignore;
    for (const record of [...manifest.gitignore].reverse()) gitignore = removeGitignoreLines(gitignore, record);
    if (manifest.gitignore[0]?.created && gitignore === "") unlinkSync(gitignorePath);
    else if (gitignore !== before) writeThroughLink(gitignorePath, gitignore);
    if (gitignore !== before) lines.push("  removed its lines from .gitignore");
  }

  const kept: string[] = [];
  let removed = 0;
  for (const [file, hash] of Object.entries(manifest.files)) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    if (sha256(readFileSync(path)) !== hash) {
      kept.push(file);
      continue;
    }
    unlinkSync(path);
    removed++;
  }
  unlinkSync(join(root, MANIFEST));
  for (const dir of [...manifest.dirs].reverse()) {
    const path = join(root, dir);
    if (existsSync(path) && readdirSync(path).length === 0) rmdirSync(path);
  }
  lines.push(`  removed ${removed} installed file(s)`);
  if (kept.length) lines.push(`  kept ${kept.length} file(s) changed since install: ${kept.join(", ")}`);
  // The slash commands went with the install: the helper is what ends a loop now.
  const loops = scanLoops(root, ctx.env).loops.map(({ file }) => file.shown);
  const project = root === ctx.cwd ? "" : ` --project ${renderShellWord(root)}`;
  const one = loops.length === 1;
  if (loops.length)
    lines.push(
      `  ${one ? "a loop's state file is" : `${loops.length} loops' state files are`} still there (${loops.join(", ")}): \`continuation-loop stop --all${project}\` ends ${one ? "it (its goal stays" : "them (their goals stay"} in the history), or delete ${one ? "the file" : "the files"}`,
    );
  return say({ ctx }, lines.join("\n"));
}
