import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { rewriteHookTable } from "../../src/core/installLayout.js";
import {
  addHooks,
  commandsOf,
  parseSettings,
  readStaleHooks,
  removeHooks,
  renderSettings,
  type HookTable,
} from "../../src/core/settingsHooks.js";

const OURS: HookTable = {
  Stop: [
    { hooks: [{ type: "command", command: 'node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/stop.js"' }] },
  ],
  UserPromptSubmit: [
    { hooks: [{ type: "command", command: 'node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/prompt.js"' }] },
  ],
};
const userStop = { matcher: "", hooks: [{ type: "command", command: "echo mine" }] };

describe("parseSettings", () => {
  it.each([
    [undefined, {}],
    ["", {}],
    ["{}", {}],
    ['\uFEFF{"model":"x"}', { model: "x" }],
    ['{"hooks":{"Stop":[]}}', { hooks: { Stop: [] } }],
  ])("reads %j", (text, expected) => {
    expect(parseSettings(text, "s.json")).toEqual(expected);
  });

  it.each([
    ['{"hooks": {},}', undefined],
    ["[]", undefined],
    ["null", undefined],
    ['{"hooks": []}', "hooks"],
    ['{"hooks": {"Stop": {}}}', "hooks.Stop"],
  ])("refuses %j", (text, field) => {
    try {
      parseSettings(text, "s.json");
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(LoopError);
      expect((error as LoopError).code).toBe("SETTINGS_MALFORMED");
      expect((error as LoopError).details.file).toBe("s.json");
      expect((error as LoopError).details.field).toBe(field);
    }
  });
});

describe("addHooks / removeHooks", () => {
  it.each([
    ["no settings", {}],
    ["other keys", { model: "opus", permissions: { allow: ["Bash(ls)"] } }],
    ["an empty hooks object", { hooks: {} }],
    ["the user's own Stop hook", { hooks: { Stop: [userStop] } }],
    ["other events", { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }] } }],
  ])("adds ours beside %s, and removing restores it exactly", (_name, settings) => {
    const before = structuredClone(settings);
    const { settings: next, record } = addHooks(settings, OURS);
    expect(settings).toEqual(before);
    expect(commandsOf(next.hooks?.Stop)).toContain(OURS.Stop![0]!.hooks![0]!.command);
    expect(commandsOf(next.hooks?.UserPromptSubmit)).toContain(OURS.UserPromptSubmit![0]!.hooks![0]!.command);
    for (const g of (before as { hooks?: HookTable }).hooks?.Stop ?? []) expect(next.hooks?.Stop).toContainEqual(g);
    expect(removeHooks(next, record)).toEqual(before);
  });

  it("adds nothing the second time", () => {
    const once = addHooks({}, OURS).settings;
    const twice = addHooks(once, OURS);
    expect(twice.settings).toEqual(once);
    expect(twice.record.added).toEqual([]);
  });

  it("adds the same command under another matcher: compaction and /clear run one bundle", () => {
    const command = { type: "command", command: 'node "x/session.js"' };
    const table: HookTable = {
      SessionStart: [
        { matcher: "compact", hooks: [command] },
        { matcher: "clear", hooks: [command] },
      ],
    };
    const { settings, record } = addHooks({}, table);
    expect(settings.hooks?.SessionStart?.map((g) => g.matcher)).toEqual(["compact", "clear"]);
    expect(record.added).toHaveLength(2);
    expect(addHooks(settings, table).record.added).toEqual([]);
  });

  it("finds the groups an earlier install added that the table no longer has", () => {
    const { record } = addHooks({}, OURS);
    expect(readStaleHooks(record, OURS)).toEqual([]);
    const guarded = rewriteHookTable({
      Stop: [
        {
          hooks: [
            {
              type: "command",
              command: 'command -v node >/dev/null && exec node "${CLAUDE_PLUGIN_ROOT}/hooks/stop.js"; exit 0',
            },
          ],
        },
      ],
      UserPromptSubmit: OURS.UserPromptSubmit!,
    });
    expect(readStaleHooks(record, guarded)).toEqual([{ event: "Stop", group: OURS.Stop![0] }]);
    expect(readStaleHooks(null, guarded)).toEqual([]);
  });

  it("keeps a group the user changed after install", () => {
    const { settings, record } = addHooks({}, OURS);
    settings.hooks!.Stop![0]!.timeout = 30;
    const after = removeHooks(settings, record);
    expect(after.hooks?.Stop).toHaveLength(1);
    expect(after.hooks?.UserPromptSubmit).toBeUndefined();
  });
});

describe("renderSettings", () => {
  it.each([
    ['{\n    "a": 1\n}\n', '{\n    "a": 1\n}\n'],
    ['{\n\t"a": 1\n}', '{\n\t"a": 1\n}'],
    ['{"a":1}', '{\n  "a": 1\n}'],
    ['\uFEFF{\r\n  "a": 1\r\n}\r\n', '\uFEFF{\r\n  "a": 1\r\n}\r\n'],
    ['{\r\n    "a": "x\\ny"\r\n}', '{\r\n    "a": "x\\ny"\r\n}'],
  ])("keeps the indentation, line ends and final line break of %j", (original, expected) => {
    expect(renderSettings(JSON.parse(original.replace(/^\uFEFF/, "")), original)).toBe(expected);
  });
});

describe("rewriteHookTable", () => {
  it("points plugin hook commands at the installed copy", () => {
    const table = rewriteHookTable({
      Stop: [{ hooks: [{ type: "command", command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/stop.js"' }] }],
    });
    expect(commandsOf(table.Stop)).toEqual(['node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/stop.js"']);
  });
});
