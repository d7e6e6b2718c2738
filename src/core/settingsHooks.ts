import { LoopError } from "./errors.js";

/** A Claude Code hook group: `{ matcher?, hooks: [{ type: "command", command }] }`. */
export type HookGroup = { hooks?: ({ command?: unknown } & Record<string, unknown>)[] } & Record<string, unknown>;
export type HookTable = Record<string, HookGroup[]>;
export type Settings = Record<string, unknown> & { hooks?: HookTable };

/** What install added to settings.json, so uninstall removes exactly that. */
export interface SettingsRecord {
  created: boolean;
  hooksKeyCreated: boolean;
  eventsCreated: string[];
  added: { event: string; group: HookGroup }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** settings.json text (undefined: no file) → object. Anything Claude Code could not read is refused. */
export function parseSettings(text: string | undefined, file: string): Settings {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new LoopError(
      "SETTINGS_MALFORMED",
      `the file is not valid JSON (${error instanceof Error ? error.message : "parse error"})`,
      {
        file,
        expected: "a JSON object; fix the file (it was not changed) and run the command again",
      },
    );
  }
  if (!isObject(value))
    throw new LoopError("SETTINGS_MALFORMED", "the file is not a JSON object", {
      file,
      expected: 'an object such as {"hooks": {}}',
    });
  if (value.hooks !== undefined) {
    if (!isObject(value.hooks))
      throw new LoopError("SETTINGS_MALFORMED", "hooks is not an object", {
        file,
        field: "hooks",
        expected: 'an object such as {"Stop": […]}',
      });
    for (const [event, groups] of Object.entries(value.hooks)) {
      if (!Array.isArray(groups))
        throw new LoopError("SETTINGS_MALFORMED", "not a list of hook groups", {
          file,
          field: `hooks.${event}`,
          expected: "a list",
        });
    }
  }
  return value as Settings;
}

/** Every command string registered for an event. */
export function commandsOf(groups: HookGroup[] | undefined): string[] {
  return (groups ?? [])
    .flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : []))
    .map((h) => h?.command)
    .filter((c): c is string => typeof c === "string");
}

/** Is the group registered already: a group of the event with the same matcher runs each of its commands? */
function isRegistered(groups: HookGroup[] | undefined, group: HookGroup): boolean {
  const matcher = group.matcher ?? "";
  const wanted = commandsOf([group]);
  return (groups ?? []).some(
    (g) => (g?.matcher ?? "") === matcher && wanted.every((command) => commandsOf([g]).includes(command)),
  );
}

/**
 * Adds each group not registered yet (the same command under another matcher is another registration:
 * SessionStart's compaction and /clear run one bundle); returns the new settings and what was added.
 */
export function addHooks(settings: Settings, table: HookTable): { settings: Settings; record: SettingsRecord } {
  const next: Settings = structuredClone(settings);
  const record: SettingsRecord = {
    created: false,
    hooksKeyCreated: next.hooks === undefined,
    eventsCreated: [],
    added: [],
  };
  for (const [event, groups] of Object.entries(table)) {
    for (const group of groups) {
      if (isRegistered(next.hooks?.[event], group)) continue;
      next.hooks ??= {};
      let groups = next.hooks[event];
      if (groups === undefined) {
        groups = next.hooks[event] = [];
        record.eventsCreated.push(event);
      }
      groups.push(structuredClone(group));
      record.added.push({ event, group });
    }
  }
  if (record.added.length === 0) record.hooksKeyCreated = false;
  return { settings: next, record };
}

/**
 * The groups an earlier install added that `table` no longer has (a command this version writes
 * differently, e.g. with the Node guard): an install over it removes them before it adds the new ones,
 * so no hook runs twice.
 */
export function readStaleHooks(record: SettingsRecord | null | undefined, table: HookTable): SettingsRecord["added"] {
  return (record?.added ?? []).filter(({ event, group }) => !(table[event] ?? []).some((g) => same(g, group)));
}

/** Removes exactly the recorded groups (first equal one each) and the containers install created, once empty. */
export function removeHooks(settings: Settings, record: SettingsRecord): Settings {
  const next: Settings = structuredClone(settings);
  for (const { event, group } of record.added) {
    const groups = next.hooks?.[event];
    const at = groups?.findIndex((g) => same(g, group)) ?? -1;
    if (groups && at >= 0) groups.splice(at, 1);
  }
  for (const event of record.eventsCreated) if (next.hooks?.[event]?.length === 0) delete next.hooks[event];
  if (record.hooksKeyCreated && next.hooks && Object.keys(next.hooks).length === 0) delete next.hooks;
  return next;
}

/** Re-renders settings in the file's own indentation, so a restored file reads as it did. */
export function renderSettings(settings: Settings, original: string | undefined): string {
  const indent = /^([ \t]+)"/m.exec(original ?? "")?.[1] ?? "  ";
  const eol = original === undefined || original.endsWith("\n") ? "\n" : "";
  const bom = original?.charCodeAt(0) === 0xfeff ? "\uFEFF" : "";
  const text = `${bom}${JSON.stringify(settings, null, indent)}${eol}`;
  // A file written on Windows keeps its line ends (JSON strings hold no raw line break to change).
  return original?.includes("\r\n") ? text.replaceAll("\n", "\r\n") : text;
}
