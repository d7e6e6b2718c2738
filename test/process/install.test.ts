// install / uninstall through the bundled CLI, on real fixture trees under test/fixtures/install/.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NODE, runHook } from "../support/runHook.js";
import { copyFixture, removeTemps, runCli, snapshot, tempProject } from "./support/cli.js";

afterAll(removeTemps);

const SETTINGS = ".claude/settings.json";
const settingsOf = (root: string) =>
  JSON.parse(readFileSync(join(root, SETTINGS), "utf8")) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  } & Record<string, unknown>;
const commands = (root: string, event: string) =>
  (settingsOf(root).hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));

describe.each(["fresh", "existing"])("install into the %s fixture", (fixture) => {
  it("installs, changes nothing the second time, and uninstall restores the tree exactly", () => {
    const root = copyFixture(fixture);
    const original = snapshot(root);

    const first = runCli(["install", "--project", root], { cwd: "/" });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("registered the Stop hook");
    // Each event once, though SessionStart is registered under three matchers.
    const events = [...first.stdout.matchAll(/registered the (\w+) hook/g)].map((m) => m[1]);
    expect(events).toContain("SessionStart");
    expect(events).toEqual([...new Set(events)]);
    for (const file of [
      "hooks/stop.js",
      "hooks/prompt.js",
      "hooks/cli.js",
      "hooks/package.json",
      "templates/tdd.md",
      "install.json",
    ]) {
      expect(existsSync(join(root, ".claude/continuation-loop", file)), file).toBe(true);
    }
    for (const name of ["loop-start", "loop-stop", "loop-status"])
      expect(existsSync(join(root, ".claude/commands", `${name}.md`))).toBe(true);
    // The plugin's commands, guard and all (hooks/hooks.json), run from the installed copy.
    expect(commands(root, "Stop")).toContain(
      'command -v node >/dev/null && node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/stop.js"; [ $? != 2 ] || exit 2',
    );
    expect(commands(root, "UserPromptSubmit").join()).toContain(
      'command -v node >/dev/null && node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/prompt.js" || ',
    );
    expect(JSON.stringify(settingsOf(root).hooks)).not.toContain("CLAUDE_PLUGIN_ROOT");
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toContain(".claude/continuation-loop*.local.md\n");
    if (fixture === "existing") {
      const settings = settingsOf(root);
      expect(settings).toMatchObject({
        model: "opus",
        permissions: { allow: ["Bash(npm test)"] },
        env: { MY_FLAG: "1" },
      });
      expect(commands(root, "Stop")[0]).toBe('node "$CLAUDE_PROJECT_DIR/own-stop.cjs"');
      expect(commands(root, "PreToolUse")).toEqual(["echo pre"]);
      expect(readFileSync(join(root, SETTINGS), "utf8")).toMatch(/^\{\n {4}"model"/);
      expect(readFileSync(join(root, ".claude/commands/review.md"), "utf8")).toBe(
        original[".claude/commands/review.md"],
      );
    }

    const installed = snapshot(root);
    const second = runCli(["install", "--project", root], { cwd: "/" });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already installed");
    expect(snapshot(root)).toEqual(installed);

    const un = runCli(["uninstall", "--project", root], { cwd: "/" });
    expect(un.code, un.stderr).toBe(0);
    expect(snapshot(root)).toEqual(original);
    expect(runCli(["uninstall", "--project", root], { cwd: "/" }).stdout).toContain("not installed");
  });
});

describe("install refusals", () => {
  it("refuses a malformed settings file and leaves the project untouched", () => {
    const root = copyFixture("malformed");
    const original = snapshot(root);
    const run = runCli(["install", "--project", root], { cwd: "/" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(".claude/settings.json: the file is not valid JSON");
    expect(run.stderr).toContain("it was not changed");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(root)).toEqual(original);
  });

  it("refuses to overwrite a command file it did not install", () => {
    const root = copyFixture("conflict");
    const original = snapshot(root);
    const run = runCli(["install", "--project", root], { cwd: "/" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(".claude/commands/loop-start.md: a file that continuation-loop did not install");
    expect(snapshot(root)).toEqual(original);
  });

  it.each([
    ["a missing folder", ["install", "--project", "/nonexistent/dir"], "the project folder does not exist"],
    ["the checkout itself", ["install"], "this is the continuation-loop checkout itself"],
    ["a stray argument", ["install", "extra"], 'unexpected argument "extra"'],
  ])("refuses %s", (_name, args, message) => {
    const run = runCli(args, { cwd: join(import.meta.dirname, "../..") });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(message);
  });
});

describe("an installed project", () => {
  it("runs the copied hooks and CLI without the package (active.js and package.json copied)", () => {
    const root = tempProject();
    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    const installed = join(root, ".claude/continuation-loop/hooks");
    const start = runCli(["start", "--max-iterations", "2", "--template", "debug", "Crash on save"], {
      cwd: root,
      script: join(installed, "cli.js"),
    });
    expect(start.code, start.stderr).toBe(0);
    expect(readFileSync(join(root, ".claude/continuation-loop.local.md"), "utf8")).toContain("## Bug\nCrash on save\n");
    const stop = spawnSync(NODE, [join(installed, "stop.js")], {
      input: JSON.stringify({ session_id: "s", cwd: root, last_assistant_message: "working" }),
      env: { PATH: process.env.PATH ?? "", CLAUDE_PROJECT_DIR: root },
      encoding: "utf8",
    });
    expect(stop.status).toBe(2);
    expect(stop.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
  });

  it("the copied helper refuses install, naming the helper that can, and changes nothing", () => {
    const root = tempProject();
    const other = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    const before = snapshot(root);
    const script = join(root, ".claude/continuation-loop/hooks/cli.js");
    for (const target of [root, other]) {
      const run = runCli(["install", "--project", target], { cwd: root, script });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("the copy install put into a project");
      expect(run.stderr).toContain("continuation-loop/hooks/cli.js install");
    }
    expect(snapshot(root)).toEqual(before);
    expect(snapshot(other)).toEqual({});
  });

  it("an upgrade removes files of the previous version that this one no longer has", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    // As if the previous version had shipped another bundle, in a folder of its own (hooks/chunks/ once).
    const old = ".claude/continuation-loop/hooks/chunks/old-ABCDEF12.js";
    mkdirSync(join(root, ".claude/continuation-loop/hooks/chunks"));
    writeFileSync(join(root, old), "old chunk\n");
    const manifestPath = join(root, ".claude/continuation-loop/install.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      files: Record<string, string>;
      dirs: string[];
    };
    manifest.files[old] = createHash("sha256").update("old chunk\n").digest("hex");
    manifest.dirs.push(".claude/continuation-loop/hooks/chunks");
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const run = runCli(["install", "--project", root], { cwd: "/" });
    expect(run.stdout).toContain("removed 1 file(s) of the previous version");
    expect(existsSync(join(root, old))).toBe(false);
    // The folder install made for them goes with them.
    expect(existsSync(join(root, ".claude/continuation-loop/hooks/chunks"))).toBe(false);
    expect(JSON.parse(readFileSync(manifestPath, "utf8")).files[old]).toBeUndefined();
  });

  describe("over an install of the previous version, whose commands ran node with no guard", () => {
    type Group = { matcher?: string; hooks: { command: string }[] };
    type Manifest = { settings: { added: { event: string; group: Group }[] } };
    const MANIFEST = ".claude/continuation-loop/install.json";
    const plain = (group: Group): Group => ({
      ...group,
      hooks: group.hooks.map((h) => ({
        ...h,
        command: h.command.replace(/^command -v node >\/dev\/null && (node "[^"]+")(?:; | \|\| ).*$/s, "$1"),
      })),
    });
    /** The project as the previous version's install left it: plain commands, no start group, and (its bug) no /clear group. */
    function previousInstall(): { root: string; original: Record<string, string> } {
      const root = copyFixture("existing");
      const original = snapshot(root);
      expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
      const manifest = JSON.parse(readFileSync(join(root, MANIFEST), "utf8")) as Manifest;
      const settings = settingsOf(root) as unknown as { hooks: Record<string, Group[]> };
      const old = manifest.settings.added.filter(
        ({ event, group }) => event !== "SessionStart" || group.matcher === "compact",
      );
      for (const { event, group } of manifest.settings.added) {
        const groups = settings.hooks[event]!;
        const at = groups.findIndex((g) => JSON.stringify(g) === JSON.stringify(group));
        if (old.some((entry) => entry.group === group)) groups[at] = plain(group);
        else groups.splice(at, 1);
      }
      manifest.settings.added = old.map(({ event, group }) => ({ event, group: plain(group) }));
      writeFileSync(join(root, SETTINGS), `${JSON.stringify(settings, null, 4)}\n`);
      writeFileSync(join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      expect(commands(root, "Stop")).toContain('node "${CLAUDE_PROJECT_DIR}/.claude/continuation-loop/hooks/stop.js"');
      return { root, original };
    }

    it("uninstall removes exactly what that install added", () => {
      const { root, original } = previousInstall();
      expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
      expect(snapshot(root)).toEqual(original);
    });

    it("install replaces its commands with the guarded ones, once each, and uninstall then restores the tree", () => {
      const { root, original } = previousInstall();
      const run = runCli(["install", "--project", root], { cwd: "/" });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("updated the Stop hook in .claude/settings.json");
      expect(JSON.stringify(settingsOf(root).hooks)).not.toMatch(/"node \\"\$\{CLAUDE_PROJECT_DIR\}/);
      for (const event of ["Stop", "UserPromptSubmit", "StopFailure", "SessionEnd"])
        expect(
          commands(root, event).filter((c) => c.includes("continuation-loop/hooks/")),
          event,
        ).toHaveLength(1);
      const matchers = (settingsOf(root).hooks.SessionStart as Group[]).map((g) => g.matcher);
      expect(matchers).toEqual(["startup|resume", "compact", "clear"]);
      expect(commands(root, "Stop")[0]).toBe('node "$CLAUDE_PROJECT_DIR/own-stop.cjs"');
      expect(runCli(["install", "--project", root], { cwd: "/" }).stdout).toContain("already installed");
      expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
      expect(snapshot(root)).toEqual(original);
    });
  });

  it("over an install whose commands ran node by `exec` (blind to a node that does not run), install puts the current commands in their place, once each", () => {
    type Group = { matcher?: string; hooks: { command: string }[] };
    const manifestPath = ".claude/continuation-loop/install.json";
    const root = copyFixture("existing");
    const original = snapshot(root);
    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    const current = readFileSync(join(root, SETTINGS), "utf8");
    // That version's commands: `… && exec node "…"; <fallback>`.
    const toExec = (text: string) =>
      text.replace(
        /command -v node >\/dev\/null && (node \\"[^"\\]+\\")(?:; \[ \$\? != 2 \] \|\| exit 2|; exit 0| \|\| \[ \$\? -gt 128 \] \|\| )/g,
        (whole, node: string) =>
          `command -v node >/dev/null && exec ${node}; ${whole.includes("[ $? -gt 128 ]") ? "" : "exit 0"}`,
      );
    for (const file of [SETTINGS, manifestPath])
      writeFileSync(join(root, file), toExec(readFileSync(join(root, file), "utf8")));
    expect(readFileSync(join(root, SETTINGS), "utf8")).toContain("&& exec node");
    const run = runCli(["install", "--project", root], { cwd: "/" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("updated the Stop hook in .claude/settings.json");
    expect(readFileSync(join(root, SETTINGS), "utf8")).toBe(current);
    for (const event of ["Stop", "UserPromptSubmit", "StopFailure", "SessionEnd"])
      expect(
        (settingsOf(root).hooks[event] as Group[]).filter((g) => g.hooks.some((h) => h.command.includes("exec node"))),
        event,
      ).toEqual([]);
    expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
    expect(snapshot(root)).toEqual(original);
  });

  it("registers SessionStart for compaction and for /clear, which run the same bundle", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    const matchers = (settingsOf(root).hooks.SessionStart as { matcher?: string }[]).map((g) => g.matcher);
    expect(matchers).toEqual(["startup|resume", "compact", "clear"]);
  });

  it("keeps a file the user changed after install, and says so", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    writeFileSync(join(root, ".claude/commands/loop-status.md"), "mine now\n");
    const un = runCli(["uninstall", "--project", root], { cwd: "/" });
    expect(un.stdout).toContain("kept 1 file(s) changed since install: .claude/commands/loop-status.md");
    expect(readFileSync(join(root, ".claude/commands/loop-status.md"), "utf8")).toBe("mine now\n");
  });

  it("removes its hooks but keeps settings the user added after install", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    const settings = settingsOf(root);
    settings.theme = "dark";
    writeFileSync(join(root, SETTINGS), JSON.stringify(settings, null, 2));
    runCli(["uninstall", "--project", root], { cwd: "/" });
    expect(JSON.parse(readFileSync(join(root, SETTINGS), "utf8"))).toEqual({ theme: "dark" });
  });

  it("keeps a settings file's CRLF line ends through install and uninstall", () => {
    const root = tempProject();
    const original = '{\r\n  "theme": "dark"\r\n}\r\n';
    mkdirSync(join(root, ".claude"), { recursive: true });
    writeFileSync(join(root, SETTINGS), original);
    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    const installed = readFileSync(join(root, SETTINGS), "utf8");
    expect(installed.split("\n").length).toBeGreaterThan(10);
    expect(installed.match(/(?<!\r)\n/g)).toBeNull();
    expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
    expect(readFileSync(join(root, SETTINGS), "utf8")).toBe(original);
  });

  it.each([
    [
      "laid out by hand",
      '{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(ls)", "Edit"]},\n  "env": {"A": "1"}\n}\n',
    ],
    ["empty", ""],
  ])("uninstall gives back a settings file %s byte for byte", (_name, text) => {
    const root = tempProject();
    mkdirSync(join(root, ".claude"), { recursive: true });
    writeFileSync(join(root, SETTINGS), text);
    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    expect(runCli(["install", "--project", root], { cwd: "/" }).stdout).toContain("nothing changed");
    expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
    expect(readFileSync(join(root, SETTINGS), "utf8")).toBe(text);
  });

  it("writes through a settings.json and a .gitignore that are symlinks, and uninstall leaves both links as they were", () => {
    const root = tempProject();
    const shared = tempProject();
    writeFileSync(join(shared, "settings.json"), '{\n  "model": "opus"\n}\n');
    writeFileSync(join(shared, "gitignore"), "node_modules\n");
    mkdirSync(join(root, ".claude"), { recursive: true });
    symlinkSync(join(shared, "settings.json"), join(root, SETTINGS));
    symlinkSync(join(shared, "gitignore"), join(root, ".gitignore"));

    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    for (const link of [SETTINGS, ".gitignore"]) expect(lstatSync(join(root, link)).isSymbolicLink(), link).toBe(true);
    expect(commands(root, "Stop").join()).toContain("stop.js");
    expect(readFileSync(join(shared, "gitignore"), "utf8")).toContain(".claude/continuation-loop*.local.md");

    expect(runCli(["uninstall", "--project", root], { cwd: "/" }).code).toBe(0);
    for (const link of [SETTINGS, ".gitignore"]) expect(lstatSync(join(root, link)).isSymbolicLink(), link).toBe(true);
    expect(readFileSync(join(shared, "settings.json"), "utf8")).toBe('{\n  "model": "opus"\n}\n');
    expect(readFileSync(join(shared, "gitignore"), "utf8")).toBe("node_modules\n");
  });

  it("with the plugin loaded too, a session's start says once that every hook runs twice, until uninstall", () => {
    const root = tempProject();
    const start = (hooks?: string) =>
      runHook(
        "session",
        { session_id: "s1", cwd: root, hook_event_name: "SessionStart", source: "startup" },
        { cwd: root, ...(hooks && { hooks }) },
      );
    expect(start().stdout).toBe("");
    runCli(["install", "--project", root], { cwd: "/" });
    // The plugin's hook and the installed copy's both run at a session's start: one of them says it.
    const plugin = start();
    expect(plugin.code).toBe(0);
    expect(String(plugin.json?.systemMessage)).toContain("uninstall");
    const installed = start(join(root, ".claude/continuation-loop/hooks"));
    expect(installed.code).toBe(0);
    expect(installed.stdout).toBe("");
    runCli(["uninstall", "--project", root], { cwd: "/" });
    expect(start().stdout).toBe("");
  });

  it("refuses to uninstall while settings.json is malformed, changing nothing", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    writeFileSync(join(root, SETTINGS), "{ nope");
    const before = snapshot(root);
    const run = runCli(["uninstall", "--project", root], { cwd: "/" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not valid JSON");
    expect(snapshot(root)).toEqual(before);
  });

  it("keeps the loops' state and history on uninstall, and says how the helper ends them", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    mkdirSync(join(root, ".claude"), { recursive: true });
    runCli(["start", "Keep me"], { cwd: root });
    runCli(["start", "--name", "docs", "Write the docs"], { cwd: root });
    const un = runCli(["uninstall", "--project", root], { cwd: "/" });
    const line = un.stdout.split("\n").find((l) => l.includes("still there")) ?? "";
    expect(line).toMatch(/^ {2}2 loops' state files are still there \(/);
    expect(line).toContain(".claude/continuation-loop.local.md");
    expect(line).toContain(".claude/continuation-loop.docs.local.md");
    // The slash commands went with the install: the line names the helper's command, which works from where it ran.
    expect(un.stdout).not.toContain("/loop-stop");
    const command = /`continuation-loop (stop --all --project [^`]+)`/.exec(line)?.[1] ?? "";
    expect(command).toBe(`stop --all --project ${root}`);
    expect(existsSync(join(root, ".claude/continuation-loop.local.md"))).toBe(true);
    expect(runCli(command.split(" "), { cwd: "/" }).code).toBe(0);
    expect(existsSync(join(root, ".claude/continuation-loop.local.md"))).toBe(false);
    expect(existsSync(join(root, ".claude/continuation-loop.docs.local.md"))).toBe(false);
    const history = readFileSync(join(root, ".claude/continuation-loop.history.jsonl"), "utf8");
    expect(history).toContain("Keep me");
    expect(history).toContain("Write the docs");
  });
});
