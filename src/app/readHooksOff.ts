// What keeps Claude Code from running this project's loop hooks, read from the person's settings (docs/REFERENCE.md
// "When the hooks do not run"), for `status` and `doctor` from a terminal.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { decideHooksOff, decidePluginOff, type HooksOff, type NamedSettings } from "../core/hooksOff.js";
import { MANIFEST } from "../core/installLayout.js";
import type { Env } from "../core/loopFiles.js";
import { readSettingsSources } from "../io/readSettingsFiles.js";

/** `disableAllHooks`, else the plugin disabled where the project does not run the hooks install copied. */
export function decideProjectHooksOff(root: string, sources: NamedSettings[]): HooksOff | undefined {
  return decideHooksOff(sources) ?? (existsSync(join(root, MANIFEST)) ? undefined : decidePluginOff(sources));
}

export const readHooksOff = (root: string, env: Env, home: string): HooksOff | undefined =>
  decideProjectHooksOff(root, readSettingsSources(root, env, home));
