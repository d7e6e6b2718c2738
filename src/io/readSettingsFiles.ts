// The person's Claude Code settings files, each parsed or with the reason it could not be.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LoopError } from "../core/errors.js";
import { type Env, resolveConfigDir } from "../core/loopFiles.js";
import { parseSettings, type Settings } from "../core/settingsHooks.js";

export interface SettingsSource {
  name: string;
  settings: Settings | undefined;
  error?: string;
}

/** Project, local and user settings, each parsed or with the reason it could not be. */
export function readSettingsSources(root: string, env: Env, home: string): SettingsSource[] {
  const files = [
    [".claude/settings.json", join(root, ".claude", "settings.json")],
    [".claude/settings.local.json", join(root, ".claude", "settings.local.json")],
    ["user settings.json", join(resolveConfigDir(env, home), "settings.json")],
  ] as const;
  return files.map(([name, path]) => {
    if (!existsSync(path)) return { name, settings: undefined };
    try {
      return { name, settings: parseSettings(readFileSync(path, "utf8"), path) };
    } catch (error) {
      return { name, settings: undefined, error: error instanceof LoopError ? error.describe() : String(error) };
    }
  });
}
