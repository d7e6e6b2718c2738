import type { GitignoreRecord } from "./gitignoreLines.js";
import type { HookGroup, HookTable, SettingsRecord } from "./settingsHooks.js";

/** Where an install puts things, relative to the project root (POSIX separators). */
export const INSTALL_DIR = ".claude/continuation-loop";
export const INSTALLED_HOOKS = `${INSTALL_DIR}/hooks`;
export const INSTALLED_TEMPLATES = `${INSTALL_DIR}/templates`;
export const COMMANDS_DIR = ".claude/commands";
export const MANIFEST = `${INSTALL_DIR}/install.json`;
export const SETTINGS = ".claude/settings.json";

/** Said at a session's start when the plugin runs in a project that has the hooks installed too (README "Install"). */
export const BOTH_ROUTES_LINE =
  "continuation-loop: this project has it installed (continuation-loop install) and the plugin is loaded too, so every hook runs twice and each stop counts two iterations. Keep one: run continuation-loop uninstall in the project, or start Claude Code without the plugin.";

/** What install did, so uninstall can undo exactly that and a second install can tell it is done. */
export interface Manifest {
  version: string;
  /** Files install wrote, with the sha256 of what it wrote. */
  files: Record<string, string>;
  /** Folders install created, outermost first. */
  dirs: string[];
  settings: SettingsRecord | null;
  /** settings.json as it was before install first changed it: uninstall gives it back byte for byte when nothing else changed. */
  settingsBefore?: string;
  gitignore: GitignoreRecord[];
}

/** The plugin's hooks.json, pointed at the installed copy: `${CLAUDE_PLUGIN_ROOT}/hooks/` → the project's. */
export function rewriteHookTable(table: HookTable): HookTable {
  const out: HookTable = {};
  for (const [event, groups] of Object.entries(table)) {
    out[event] = groups.map(
      (group): HookGroup => ({
        ...group,
        hooks: (group.hooks ?? []).map((hook) => ({
          ...hook,
          ...(typeof hook.command === "string" && {
            command: hook.command
              .split("${CLAUDE_PLUGIN_ROOT}/hooks/")
              .join(`\${CLAUDE_PROJECT_DIR}/${INSTALLED_HOOKS}/`),
          }),
        })),
      }),
    );
  }
  return out;
}

/** A manifest read back from disk, or undefined when its shape is not ours. */
export function parseManifest(text: string): Manifest | undefined {
  try {
    const m = JSON.parse(text) as Manifest;
    const ok =
      typeof m.version === "string" &&
      m.files &&
      typeof m.files === "object" &&
      Array.isArray(m.dirs) &&
      Array.isArray(m.gitignore);
    return ok ? m : undefined;
  } catch {
    return undefined;
  }
}
