// Settings that keep Claude Code from running the loop's hooks (docs/REFERENCE.md "When the hooks do not run"):
// `status` and `doctor` from a terminal say so, naming the file and the field, instead of showing the loop as
// running; and doctor warns of a Stop timeout the loop's commands may outlast.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

const STATE = "---\nmax_iterations: 5\nverify: npm test\n---\nFix the tests\n";

/** A project with a loop and a HOME; `CLAUDE_CONFIG_DIR` when given. */
function project(): { root: string; home: string; write: (file: string, value: unknown) => void } {
  const root = tempProject();
  const home = join(root, "home");
  mkdirSync(join(root, ".claude"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(root, ".claude/continuation-loop.local.md"), STATE);
  return { root, home, write: (file, value) => writeFileSync(join(root, file), JSON.stringify(value)) };
}

const run = (command: string, root: string, env: Record<string, string>) =>
  runCli([command, "--project", root], { cwd: "/", env });

describe("disableAllHooks", () => {
  it("status and doctor name the settings file that turns every hook off", () => {
    for (const [file, shown] of [
      [".claude/settings.local.json", ".claude/settings.local.json"],
      [".claude/settings.json", ".claude/settings.json"],
      ["home/.claude/settings.json", "user settings.json"],
    ] as const) {
      const p = project();
      p.write(file, { disableAllHooks: true });
      const env = { HOME: p.home };
      const status = run("status", p.root, env);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain("iteration 1/5");
      expect(status.stdout).toContain(`hooks off: disableAllHooks is true in ${shown}, so the loop does not continue`);
      const doctor = run("doctor", p.root, env);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(
        new RegExp(
          `FAIL {2}Claude Code runs no hooks here: disableAllHooks is true in ${shown.replaceAll(".", "\\.")}`,
        ),
      );
    }
  });

  it("a more specific file that sets it false turns the hooks back on, and nothing is said", () => {
    const p = project();
    p.write("home/.claude/settings.json", { disableAllHooks: true });
    p.write(".claude/settings.local.json", { disableAllHooks: false });
    const env = { HOME: p.home };
    expect(run("status", p.root, env).stdout).not.toContain("disableAllHooks");
    expect(run("doctor", p.root, env).stdout).not.toContain("disableAllHooks");
  });

  it("reads the user settings where CLAUDE_CONFIG_DIR points", () => {
    const p = project();
    const config = join(p.root, "config");
    mkdirSync(config);
    writeFileSync(join(config, "settings.json"), JSON.stringify({ disableAllHooks: true }));
    expect(run("status", p.root, { HOME: p.home }).stdout).not.toContain("disableAllHooks");
    expect(run("status", p.root, { HOME: p.home, CLAUDE_CONFIG_DIR: config }).stdout).toContain(
      "hooks off: disableAllHooks is true in user settings.json",
    );
  });
});

describe("the plugin disabled (claude plugin disable)", () => {
  const ID = "continuation-loop@continuation-loop";

  it("status and doctor say the plugin's hooks do not run, and how to enable it", () => {
    const p = project();
    p.write("home/.claude/settings.json", { enabledPlugins: { [ID]: false } });
    const env = { HOME: p.home };
    expect(run("status", p.root, env).stdout).toContain(
      `hooks off: the plugin is disabled (enabledPlugins "${ID}" false in user settings.json)`,
    );
    const doctor = run("doctor", p.root, env);
    expect(doctor.stdout).toMatch(
      /warn {2}the continuation-loop plugin is disabled: .*Expected true: claude plugin enable continuation-loop@continuation-loop/,
    );
    expect(doctor.stdout).not.toContain("the continuation-loop plugin is enabled in settings");
  });

  it("says nothing on the install route, whose hooks run without the plugin", () => {
    const p = project();
    const env = { HOME: p.home };
    expect(runCli(["install", "--project", p.root], { cwd: "/", env }).code).toBe(0);
    p.write("home/.claude/settings.json", { enabledPlugins: { [ID]: false } });
    expect(run("status", p.root, env).stdout).not.toContain("hooks off");
  });
});

describe("a Stop timeout shorter than the loop's commands", () => {
  it("doctor warns, naming the settings file, the timeout and the loop's field", () => {
    const p = project();
    const env = { HOME: p.home };
    expect(runCli(["install", "--project", p.root], { cwd: "/", env }).code).toBe(0);
    expect(run("doctor", p.root, env).stdout).not.toContain("the Stop hook's timeout");
    const settings = join(p.root, ".claude/settings.json");
    const parsed = JSON.parse(readFileSync(settings, "utf8"));
    parsed.hooks.Stop[0].hooks[0].timeout = 60;
    writeFileSync(settings, JSON.stringify(parsed));
    const doctor = run("doctor", p.root, env);
    expect(doctor.stdout).toMatch(
      /warn {2}the Stop hook's timeout is 60s in \.claude\/settings\.json, but \.claude\/continuation-loop\.local\.md's verify may take up to 300s \(verify_timeout\)/,
    );
  });
});

describe("a hook ended while it held the loop's lock", () => {
  it("status says the last save was cut short while the lock's process is gone, and nothing while its holder lives", () => {
    const p = project();
    const lock = join(p.root, ".claude/continuation-loop.local.md.lock");
    const status = () => run("status", p.root, { HOME: p.home }).stdout;
    expect(status()).not.toContain("cut short");
    writeFileSync(lock, `${process.pid} ${new Date().toISOString()}\n`);
    expect(status()).not.toContain("cut short");
    writeFileSync(lock, `999999999 ${new Date().toISOString()}\n`);
    expect(status()).toContain(
      "last save cut short: a hook was ended while it held .claude/continuation-loop.local.md.lock",
    );
  });
});

describe("a copy of the plugin with a bundle missing (an update cut short)", () => {
  it("doctor fails, naming each missing bundle", () => {
    const p = project();
    const plugin = join(p.root, "plugin");
    cpSync(join(REPO, "hooks"), join(plugin, "hooks"), { recursive: true });
    const script = join(plugin, "hooks", "cli.js");
    const doctor = () => runCli(["doctor", "--project", p.root], { cwd: "/", env: { HOME: p.home }, script });
    expect(doctor().stdout).toMatch(/ok {4}the hooks' bundles are all in /);
    rmSync(join(plugin, "hooks", "stop.js"));
    rmSync(join(plugin, "hooks", "active", "session.js"));
    const run = doctor();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`FAIL  ${join(plugin, "hooks")} misses stop.js, active/session.js`);
  });
});
