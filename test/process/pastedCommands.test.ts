// The commands the helper and the hooks show a person to paste, when the plugin and the project sit in folders whose
// names a shell would read (' & $ ` " ; !): pasted into sh -c and into an interactive bash, each does what it says.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE, REPO } from "../support/runHook.js";

const PLUGIN_PARTS = [".claude-plugin", "hooks", ".claude/commands", "templates", "package.json"];

/** A copy of the plugin and a project under one folder, each with a name a shell would read. */
function makeOddWorld() {
  const base = join(mkdtempSync(join(tmpdir(), "cl-odd-")), "O'Brien & Co");
  const plugin = join(base, 'plug $HOME `id` "q"; x!y');
  const proj = join(base, 'R&D $x; `y` "z"!');
  const home = join(base, "home");
  for (const part of PLUGIN_PARTS) cpSync(join(REPO, part), join(plugin, part), { recursive: true });
  mkdirSync(join(proj, ".claude"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { plugin, proj, home, cli: join(plugin, "hooks", "cli.js") };
}

type Paste = "sh -c" | "interactive bash";

/** Runs `command` as a person would paste it, in `cwd`; its status. */
function paste(how: Paste, command: string, cwd: string, home: string): number | null {
  const env = { PATH: process.env.PATH ?? "", HOME: home, HISTFILE: "/dev/null" };
  if (how === "sh -c") return spawnSync("sh", ["-c", command], { cwd, env, stdio: "ignore" }).status;
  const input = `${command}\nexit $?\n`;
  return spawnSync("bash", ["--norc", "--noprofile", "-i"], { cwd, env, input, stdio: ["pipe", "ignore", "ignore"] })
    .status;
}

describe.each<Paste>(["sh -c", "interactive bash"])("commands shown to paste, pasted into %s", (how) => {
  it("a terminal-only flag's refusal names the helper's command, which writes the report", () => {
    const world = makeOddWorld();
    const state = join(world.proj, ".claude", "continuation-loop.local.md");
    writeFileSync(state, "---\nmax_iterations: 1\n---\nWrite the summary\n");
    const stopped = spawnSync(NODE, [join(world.plugin, "hooks", "stop.js")], {
      input: JSON.stringify({
        session_id: "s1",
        cwd: world.proj,
        hook_event_name: "Stop",
        last_assistant_message: "ok",
      }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: world.home },
    });
    expect(stopped.status, stopped.stderr).toBe(0);
    const refused = spawnSync(NODE, [join(world.plugin, "hooks", "prompt.js")], {
      input: JSON.stringify({
        session_id: "s1",
        cwd: world.proj,
        hook_event_name: "UserPromptSubmit",
        prompt: "/loop-report --html report.html",
      }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: world.home },
    });
    const reason = String(JSON.parse(refused.stdout).reason);
    const shown = /!(node .*) --html FILE \(a ! line runs it from Claude Code\)/.exec(reason)?.[1];
    expect(shown, reason).toBeDefined();
    expect(paste(how, `${shown} --html report.html`, world.proj, world.home)).toBe(0);
    expect(existsSync(join(world.proj, "report.html"))).toBe(true);
  });

  it("doctor's fix for a project on both routes uninstalls the hooks from that project", () => {
    const world = makeOddWorld();
    const env = { PATH: process.env.PATH ?? "", HOME: world.home };
    const installed = spawnSync(NODE, [world.cli, "install", "--project", world.proj], { encoding: "utf8", env });
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    // The plugin enabled too, as a marketplace install leaves it in the user's settings.
    mkdirSync(join(world.home, ".claude"), { recursive: true });
    writeFileSync(
      join(world.home, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "continuation-loop@continuation-loop": true } }),
    );
    const doctor = spawnSync(NODE, [world.cli, "doctor", "--project", world.proj], { encoding: "utf8", env });
    const fix = /keep one route: (.*), or claude plugin disable/.exec(doctor.stdout)?.[1];
    expect(fix, doctor.stdout).toBeDefined();
    expect(paste(how, fix ?? "", tmpdir(), world.home)).toBe(0);
    expect(existsSync(join(world.proj, ".claude", "continuation-loop"))).toBe(false);
  });
});

it("doctor's status line entry, pasted into settings and run by a shell as Claude Code runs it, shows the loop", () => {
  const world = makeOddWorld();
  writeFileSync(
    join(world.proj, ".claude", "continuation-loop.local.md"),
    "---\nmax_iterations: 7\nsession_id: s1\n---\nWrite the summary\n",
  );
  const env = { PATH: process.env.PATH ?? "", HOME: world.home };
  const doctor = spawnSync(NODE, [world.cli, "doctor", "--project", world.proj], { encoding: "utf8", env });
  const entry = /put in \.claude\/settings\.json: ("statusLine": \{.*\})$/m.exec(doctor.stdout)?.[1];
  expect(entry, doctor.stdout).toBeDefined();
  const { statusLine } = JSON.parse(`{${entry}}`) as { statusLine: { type: string; command: string } };
  expect(statusLine.type).toBe("command");
  const line = execFileSync("sh", ["-c", statusLine.command], {
    input: JSON.stringify({ session_id: "s1", workspace: { project_dir: world.proj } }),
    encoding: "utf8",
    env,
  });
  expect(line).toMatch(/1\/7/);
});
