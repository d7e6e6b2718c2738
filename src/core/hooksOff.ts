// Settings that keep Claude Code from running the loop's hooks (docs/REFERENCE.md "When the hooks do not run"): a
// state file cannot continue then, and `status` and `doctor` say so instead of showing the loop as running.
import { MAX_VERIFY_TIMEOUT_S, STOP_HOOK_TIMEOUT_S } from "./fields.js";
import type { LoopState } from "./parseState.js";
import type { Settings } from "./settingsHooks.js";

/** A settings file by the name shown to the person, parsed (undefined: absent or unreadable). */
export interface NamedSettings {
  name: string;
  settings: Settings | undefined;
}

/** Why the hooks do not run: the file that says so and its field. */
export interface HooksOff {
  file: string;
  field: string;
}

/** Claude Code's order: the most specific file that sets a field decides it. */
const PRECEDENCE = [".claude/settings.local.json", ".claude/settings.json", "user settings.json"];

const byPrecedence = (sources: NamedSettings[]): NamedSettings[] =>
  PRECEDENCE.map((name) => sources.find((s) => s.name === name)).filter((s): s is NamedSettings => s !== undefined);

/** `disableAllHooks: true` in the file that decides it (a local `false` turns a user `true` back on). */
export function decideHooksOff(sources: NamedSettings[]): HooksOff | undefined {
  for (const s of byPrecedence(sources)) {
    const value = s.settings?.disableAllHooks;
    if (typeof value === "boolean") return value ? { file: s.name, field: "disableAllHooks" } : undefined;
  }
  return undefined;
}

/** The plugin's entry in `enabledPlugins` (`continuation-loop@MARKETPLACE`) of the file that decides it. */
export function readPluginSetting(sources: NamedSettings[]): { id: string; file: string; on: boolean } | undefined {
  for (const s of byPrecedence(sources))
    for (const [id, on] of Object.entries((s.settings?.enabledPlugins as Record<string, unknown> | undefined) ?? {}))
      if (id.startsWith("continuation-loop@") && typeof on === "boolean") return { id, file: s.name, on };
  return undefined;
}

/** `claude plugin disable` (`enabledPlugins` false): the marketplace install's hooks do not run. */
export function decidePluginOff(sources: NamedSettings[]): HooksOff | undefined {
  const setting = readPluginSetting(sources);
  return setting && !setting.on ? { file: setting.file, field: `enabledPlugins "${setting.id}"` } : undefined;
}

/** A row under the loop in `status` and `/loop-status`: short, so the answer keeps to its rows. */
export const renderHooksOffRow = (off: HooksOff): string =>
  off.field.startsWith("enabledPlugins")
    ? `hooks off: the plugin is disabled (${off.field} false in ${off.file}), so the loop does not continue`
    : `hooks off: ${off.field} is true in ${off.file}, so the loop does not continue (remove it there)`;

/** A row under the loop: its last save was cut short, as Claude Code's Stop timeout does to a long `verify`. */
export const renderCutShort = (shown: string): string =>
  `last save cut short: a hook was ended while it held ${shown}.lock (a Stop timeout, or a kill); nothing is torn, and the next Stop goes on (doctor checks the Stop timeout)`;

/** One line: what keeps the loop from running, and the fix. */
export const renderHooksOff = (off: HooksOff): string =>
  off.field.startsWith("enabledPlugins")
    ? `the continuation-loop plugin is disabled: ${off.field} is false in ${off.file}, so Claude Code runs none of its hooks (unless started with --plugin-dir) and no loop continues. Expected true: claude plugin enable ${off.field.slice('enabledPlugins "'.length, -1)}`
    : `Claude Code runs no hooks here: ${off.field} is true in ${off.file}, so no loop continues and no loop command is answered. Expected ${off.field} false or absent (remove it from ${off.file})`;

/** A `timeout` (seconds) the person's settings give the loop's Stop hook. */
export interface StopTimeout {
  file: string;
  seconds: number;
}

/** The loop's fields that run commands at a Stop, and their limits (seconds). */
type StopCommands = Partial<Pick<LoopState, "until" | "verify" | "metric">> &
  Pick<LoopState, "verify_timeout" | "metric_timeout">;

/** What the Stop's commands may take at most: `until`, `metric` and `verify` each within their limits. */
export function readCommandSeconds(state: StopCommands): { seconds: number; fields: string[] } {
  const parts: [string, number][] = [];
  if (state.until !== undefined) parts.push(["until", state.verify_timeout]);
  if (state.metric !== undefined) parts.push(["metric", state.metric_timeout]);
  if (state.verify !== undefined) parts.push(["verify", state.verify_timeout]);
  const seconds = Math.min(
    MAX_VERIFY_TIMEOUT_S,
    parts.reduce((sum, [, s]) => sum + s, 0),
  );
  return { seconds, fields: parts.map(([name]) => name) };
}

/**
 * The loop's commands may outlast the Stop hook's timeout: Claude Code then ends the Stop mid-way, the turn's
 * iteration is not counted and the loop stops continuing. The line names the file, the field and the value.
 */
export function decideStopTimeoutShort(state: StopCommands, shown: string, timeout: StopTimeout): string | undefined {
  const { seconds, fields } = readCommandSeconds(state);
  if (fields.length === 0 || timeout.seconds > seconds) return undefined;
  const limits = fields.map((f) => (f === "metric" ? "metric_timeout" : "verify_timeout"));
  return `the Stop hook's timeout is ${timeout.seconds}s in ${timeout.file}, but ${shown}'s ${fields.join(" and ")} may take up to ${seconds}s (${[...new Set(limits)].join(", ")}): Claude Code ends a Stop past its timeout, and the loop then stops continuing. Expected a timeout of ${STOP_HOOK_TIMEOUT_S} in ${timeout.file} (as install writes it), or a shorter ${[...new Set(limits)].join(" or ")}`;
}
