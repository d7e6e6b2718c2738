// Settings that keep Claude Code from running the loop's hooks, and a Stop timeout shorter than the loop's commands.
import { describe, expect, it } from "vitest";
import {
  decideHooksOff,
  decidePluginOff,
  decideStopTimeoutShort,
  readCommandSeconds,
  renderHooksOff,
} from "../../src/core/hooksOff.js";

const USER = "user settings.json";
const PROJECT = ".claude/settings.json";
const LOCAL = ".claude/settings.local.json";

describe("decideHooksOff", () => {
  it("finds disableAllHooks true in any one settings file", () => {
    for (const name of [USER, PROJECT, LOCAL])
      expect(decideHooksOff([{ name, settings: { disableAllHooks: true } }])).toEqual({
        file: name,
        field: "disableAllHooks",
      });
  });

  it("lets the most specific file that sets it decide: local, then project, then user", () => {
    const off = { disableAllHooks: true };
    const on = { disableAllHooks: false };
    expect(
      decideHooksOff([
        { name: USER, settings: off },
        { name: LOCAL, settings: on },
      ]),
    ).toBeUndefined();
    expect(
      decideHooksOff([
        { name: USER, settings: on },
        { name: PROJECT, settings: off },
      ])?.file,
    ).toBe(PROJECT);
    expect(
      decideHooksOff([
        { name: PROJECT, settings: on },
        { name: LOCAL, settings: off },
      ])?.file,
    ).toBe(LOCAL);
    expect(
      decideHooksOff([
        { name: PROJECT, settings: off },
        { name: LOCAL, settings: {} },
      ])?.file,
    ).toBe(PROJECT);
  });

  it("ignores a value that is not a boolean, an unreadable file and a file that does not exist", () => {
    expect(decideHooksOff([{ name: USER, settings: { disableAllHooks: "true" } }])).toBeUndefined();
    expect(decideHooksOff([{ name: USER, settings: undefined }])).toBeUndefined();
    expect(decideHooksOff([])).toBeUndefined();
  });
});

describe("decidePluginOff", () => {
  const ID = "continuation-loop@continuation-loop";

  it("finds the plugin disabled in the file that decides it, and says how to enable it", () => {
    const off = decidePluginOff([{ name: USER, settings: { enabledPlugins: { [ID]: false } } }]);
    expect(off).toEqual({ file: USER, field: `enabledPlugins "${ID}"` });
    expect(renderHooksOff(off!)).toContain(`is false in user settings.json`);
    expect(renderHooksOff(off!)).toContain(`claude plugin enable ${ID}`);
  });

  it("a more specific file enabling it wins, and other plugins are not ours", () => {
    const sources = [
      { name: USER, settings: { enabledPlugins: { [ID]: false } } },
      { name: LOCAL, settings: { enabledPlugins: { [ID]: true } } },
    ];
    expect(decidePluginOff(sources)).toBeUndefined();
    expect(decidePluginOff([{ name: USER, settings: { enabledPlugins: { "other@m": false } } }])).toBeUndefined();
  });
});

describe("decideStopTimeoutShort", () => {
  const state = { verify_timeout: 300, metric_timeout: 300 };

  it("adds up until, metric and verify within the Stop's own budget", () => {
    expect(readCommandSeconds({ ...state, verify: "npm test" })).toEqual({ seconds: 300, fields: ["verify"] });
    expect(readCommandSeconds({ ...state, until: "a", metric: "b", verify: "c" })).toEqual({
      seconds: 840,
      fields: ["until", "metric", "verify"],
    });
  });

  it("names the file, the timeout and the fields when the commands may outlast it", () => {
    const line = decideStopTimeoutShort({ ...state, verify: "npm test" }, "x.md", { file: PROJECT, seconds: 30 });
    expect(line).toContain("timeout is 30s in .claude/settings.json");
    expect(line).toContain("verify may take up to 300s (verify_timeout)");
    expect(line).toContain("Expected a timeout of 900 in .claude/settings.json");
  });

  it("says nothing for a loop with no command, or a timeout longer than its commands", () => {
    expect(decideStopTimeoutShort(state, "x.md", { file: PROJECT, seconds: 3 })).toBeUndefined();
    expect(decideStopTimeoutShort({ ...state, verify: "v" }, "x.md", { file: PROJECT, seconds: 900 })).toBeUndefined();
  });
});
