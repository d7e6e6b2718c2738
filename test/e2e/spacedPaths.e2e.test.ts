// Folders named with spaces and ' & $ ` " ; (a user "O'Brien", a project "R&D"): through the real Claude Code CLI on
// both pins, the plugin loaded from such a folder with the project, HOME and the notes file in such paths; a project
// set up with `continuation-loop install`, whose hook commands name its folder through Claude Code's own
// ${CLAUDE_PROJECT_DIR}; and `run`. On both pins Claude Code hands a hook ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PROJECT_DIR} in its environment, never
// in the command's text, so the shell never reads those characters; `run`, doctor and uninstall work there too.
// Then names with $(…), glob characters, a leading -, a line break and NFD letters, in the folders and in the files
// Claude writes: checkpoints, restore and report (docs/REFERENCE.md "Names with odd characters").
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import { HISTORY, LOOP_MARKER } from "./loopSupport.js";
import { trustProject } from "./support/loopProject.js";
import { CLAUDE_VERSIONS, describeRun, OLDEST, readJsonl, REPO_ROOT, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { runCommandEnv } from "./support/runCommand.js";

/** What the plugin folder holds: its manifest, the hooks and their module, the commands and the templates. */
const PLUGIN_PARTS = [".claude-plugin", "hooks", ".claude/commands", "templates"];

const t = perTest();

/** Folder names with spaces that a shell would read: an apostrophe, `&`, `$`, a backtick, a double quote and `;`. */
const NAMES = { base: "O'Brien & Co", proj: 'R&D $HOME `id` "x"; y', home: "home $PATH; `x`" };

/** A project and a HOME under `<tmp>/O'Brien & Co/`, each folder named as above. */
function makeSpacedWorld(names = NAMES) {
  const root = t.tempDir("cl-e2e-spaces-");
  const base = path.join(root, names.base);
  const world = { proj: path.join(base, names.proj), home: path.join(base, names.home), base };
  fs.mkdirSync(world.proj, { recursive: true });
  trustProject(world);
  return world;
}

/** A copy of the plugin in a folder whose path has spaces (a marketplace cache under such a HOME). */
function copyPlugin(base: string): string {
  const dir = path.join(base, "plugins dir", "continuation loop");
  for (const part of PLUGIN_PARTS) fs.cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
  return dir;
}

describe.each(CLAUDE_VERSIONS)(
  "Claude Code %s, folders named with spaces and characters a shell would read",
  (version) => {
    it("runs a loop to its end from a plugin, project and HOME whose paths hold ' & $ ` \" ;", async () => {
      const world = makeSpacedWorld();
      const plugin = copyPlugin(world.base);
      fs.writeFileSync(path.join(world.proj, "shared notes.md"), "NOTES-SEEN: the intro is done.\n");
      const server = await t.server([text("Drafted."), text("Revised."), text("Polished."), text("never sent")]);
      const r = await runClaude({
        version,
        prompt: '/continuation-loop:loop-start --max-iterations 3 --notes-file "shared notes.md" Write the summary',
        baseUrl: server.url,
        cwd: world.proj,
        home: world.home,
        pluginDirs: [plugin],
      });
      expect(r.code, describeRun(r)).toBe(0);
      const main = server.mainRequests;
      expect(main).toHaveLength(3);
      const continuations = main.slice(1).map((req) => lastUserText(req));
      expect(continuations[0]).toContain(LOOP_MARKER);
      expect(continuations[0]).toContain("Write the summary");
      expect(continuations[0]).toContain("NOTES-SEEN: the intro is done.");
      // On the newest pin the module, loaded from the same folder, sends them as prompts: no hook command.
      for (const c of continuations) expect(c.includes("stop.js")).toBe(version === OLDEST);
      const history = readJsonl(path.join(world.proj, HISTORY));
      expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
      expect(history.at(-1)).toMatchObject({ reason: "max_iterations", iteration: 3 });
    });

    it("continuation-loop run, from a plugin copy whose path holds ' & $ ` \" ;, drives a loop to its end there", async () => {
      const world = makeSpacedWorld();
      const plugin = copyPlugin(world.base);
      const server = await t.server([text("Drafted."), text("Polished. <promise>DONE</promise>"), text("never sent")]);
      const { env } = runCommandEnv(version, { dir: t.tempDir("cl-e2e-run-"), baseUrl: server.url, home: world.home });
      // Spawned, not spawnSync: the scripted API answers from this process.
      const child = spawn(
        process.execPath,
        [path.join(plugin, "hooks", "cli.js"), "run", "--max-iterations", "4", "Write it"],
        {
          cwd: world.proj,
          env,
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code, stderr).toBe(0);
      expect(server.mainRequests).toHaveLength(2);
      expect(readJsonl(path.join(world.proj, HISTORY)).at(-1)).toMatchObject({ reason: "completed", iteration: 2 });
    });

    it("runs a loop in a project installed with continuation-loop install, its path holding ' & $ ` \" ;", async () => {
      const world = makeSpacedWorld();
      const cli = path.join(REPO_ROOT, "hooks", "cli.js");
      const installed = spawnSync(process.execPath, [cli, "install", "--project", world.proj], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: world.home },
      });
      expect(installed.status, installed.stdout + installed.stderr).toBe(0);
      const server = await t.server([text("First draft."), text("Final version. DONE"), text("never sent")]);
      const r = await runClaude({
        version,
        prompt: "/loop-start --max-iterations 4 --completion-promise DONE Write the summary",
        baseUrl: server.url,
        cwd: world.proj,
        home: world.home,
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(server.mainRequests).toHaveLength(2);
      // No plugin is loaded: the continuation can only come from the hooks install wrote.
      expect(lastUserText(server.mainRequests[1]!)).toContain(LOOP_MARKER);
      expect(readJsonl(path.join(world.proj, HISTORY)).at(-1)).toMatchObject({ reason: "completed", iteration: 2 });
      // doctor finds the hooks install wrote, and uninstall takes them out again.
      const helper = (command: string) =>
        spawnSync(process.execPath, [cli, command, "--project", world.proj], {
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "", HOME: world.home },
        });
      const doctor = helper("doctor");
      expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0);
      expect(doctor.stdout).toContain(`${world.proj}/.claude/continuation-loop/hooks/stop.js`);
      const removed = helper("uninstall");
      expect(removed.status, removed.stdout + removed.stderr).toBe(0);
      expect(fs.existsSync(path.join(world.proj, ".claude", "continuation-loop"))).toBe(false);
      const settings = path.join(world.proj, ".claude", "settings.json");
      if (fs.existsSync(settings)) expect(fs.readFileSync(settings, "utf8")).not.toContain("continuation-loop");
    });
  },
);

/** Files Claude writes, one an iteration: shell and glob characters, a leading -, a line break, NFC and NFD letters. */
const ODD_FILES = [
  'it\'s "q" $(touch pwned) `touch pwned`;&.txt',
  "st*r?[1].txt",
  "new\nline.txt",
  "-dash.txt",
  "caf\u00e9 日本語 🚀.txt",
  "cafe\u0301.txt",
];

/** Any file or folder under `dir` whose name starts with "pwned": a command the product ran from a name. */
function findPwned(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith("pwned")) found.push(path.join(dir, entry.name));
    if (entry.isDirectory() && entry.name !== ".git") findPwned(path.join(dir, entry.name), found);
  }
  return found;
}

describe.each(CLAUDE_VERSIONS)(
  "Claude Code %s, names with $(…), glob characters, line breaks and NFD letters",
  (version) => {
    it("checkpoints each iteration's odd file names, and restore puts iteration 2 back; nothing runs from a name", async () => {
      const world = makeSpacedWorld({
        base: "o'brien $(touch pwned) [x]*? `touch pwned`",
        proj: "-proj cafe\u0301 日本語 🚀 x;&",
        home: "o'brien",
      });
      const plugin = copyPlugin(path.join(world.base, "$(touch pwned)"));
      const git = (...args: string[]) =>
        spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: world.proj, encoding: "utf8" });
      fs.writeFileSync(path.join(world.proj, ".gitignore"), ".claude/\n");
      git("init", "-q");
      git("add", ".");
      git("commit", "-qm", "base");
      let turn = 0;
      const server = await t.server(() => {
        const i = turn++;
        if (i >= 2 * ODD_FILES.length) return text("never sent");
        const file = ODD_FILES[Math.floor(i / 2)] as string;
        return i % 2 === 0
          ? toolUse("Write", { file_path: path.join(world.proj, file), content: `${file}\n` })
          : text("Wrote it.");
      });
      const r = await runClaude({
        version,
        prompt: `/continuation-loop:loop-start --checkpoints --max-iterations ${ODD_FILES.length} --name odd Write the files`,
        baseUrl: server.url,
        cwd: world.proj,
        home: world.home,
        pluginDirs: [plugin],
        allowedTools: ["Write"],
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(readJsonl(path.join(world.proj, HISTORY)).at(-1)).toMatchObject({
        reason: "max_iterations",
        iteration: 6,
      });
      for (const file of ODD_FILES) expect(fs.readFileSync(path.join(world.proj, file), "utf8")).toBe(`${file}\n`);
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, [path.join(plugin, "hooks", "cli.js"), ...args, "--name", "odd"], {
          cwd: world.proj,
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "", HOME: world.home },
        });
      expect(cli("checkpoints").stdout).toMatch(/^\s+1\s.*\n(\s+\d\s.*\n){4}\s+6\s/m);
      const restored = cli("restore", "2");
      expect(restored.status, restored.stderr).toBe(0);
      expect(ODD_FILES.map((file) => fs.existsSync(path.join(world.proj, file)))).toEqual([
        true,
        true,
        false,
        false,
        false,
        false,
      ]);
      expect(cli("report").status).toBe(0);
      expect(findPwned(path.dirname(world.base))).toEqual([]);
    });
  },
);
