// The package as published: `npm pack`, install the tarball into an empty folder (no dev
// dependencies), run its bin to install into a fresh project, and run a Stop there. The packed version is the
// plugin's (.claude-plugin/plugin.json), which Claude Code caches an installed plugin by.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NODE, REPO } from "../support/runHook.js";

const tmp = mkdtempSync(join(tmpdir(), "cl-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const npm = (args: string[], cwd: string) =>
  spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
  });

describe("the published package", () => {
  it("packs with no runtime dependencies, installs from the tarball, installs into a project and runs a loop", {
    timeout: 120_000,
  }, () => {
    // No `prepare`: it reinstalls test/node-versions, whose Node binaries other projects are running.
    const pack = npm(["pack", "--json", "--ignore-scripts", "--pack-destination", tmp], REPO);
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as { filename: string; version: string; files: { path: string }[] }[];
    const { version } = JSON.parse(readFileSync(join(REPO, ".claude-plugin/plugin.json"), "utf8")) as {
      version: string;
    };
    expect(info!.version).toBe(version);
    expect(info!.filename).toBe(`continuation-loop-${version}.tgz`);
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "hooks/stop.js",
        "hooks/prompt.js",
        "hooks/active/stop.js",
        "hooks/cli.js",
        "hooks/hooks.json",
      ]),
    );
    expect(files.some((f) => f.startsWith("src/") || f.startsWith("test/"))).toBe(false);

    const consumer = join(tmp, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), '{"name":"consumer","version":"1.0.0","private":true}\n');
    const install = npm(["install", "--omit=dev", join(tmp, info!.filename)], consumer);
    expect(install.status, install.stderr).toBe(0);
    const installed = JSON.parse(readFileSync(join(consumer, "node_modules/continuation-loop/package.json"), "utf8"));
    expect(installed.dependencies ?? {}).toEqual({});
    expect(installed.version).toBe(version);
    const packedPlugin = join(consumer, "node_modules/continuation-loop/.claude-plugin/plugin.json");
    expect(JSON.parse(readFileSync(packedPlugin, "utf8")).version).toBe(version);
    // Nothing but the package itself came along.
    const lock = JSON.parse(readFileSync(join(consumer, "package-lock.json"), "utf8")) as { packages: object };
    expect(Object.keys(lock.packages).filter((p) => p.startsWith("node_modules/"))).toEqual([
      "node_modules/continuation-loop",
    ]);

    const project = join(tmp, "project");
    mkdirSync(project);
    const bin = join(consumer, "node_modules/.bin/continuation-loop");
    const run = spawnSync(bin, ["install", "--project", project], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: tmp },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(project, ".claude/settings.json"))).toBe(true);
    // The packed helper and the copy it installed both name the version.
    for (const cli of [bin, join(project, ".claude/continuation-loop/hooks/cli.js")]) {
      const doctor = spawnSync(NODE, [cli, "doctor", "--project", project], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: tmp },
      });
      expect(doctor.stdout.split("\n")[0]).toBe(`continuation-loop ${version} doctor: ${project}`);
    }

    writeFileSync(join(project, ".claude/continuation-loop.local.md"), "---\nmax_iterations: 3\n---\nShip it\n");
    const stop = spawnSync(NODE, [join(project, ".claude/continuation-loop/hooks/stop.js")], {
      input: JSON.stringify({
        session_id: "s1",
        cwd: project,
        hook_event_name: "Stop",
        last_assistant_message: "working",
      }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: tmp },
    });
    expect(stop.status).toBe(2);
    expect(stop.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
    expect(stop.stderr).toContain("Ship it");
    // The prompt hook's loop command runs the active bundle from the installed copy too.
    const status = spawnSync(NODE, [join(project, ".claude/continuation-loop/hooks/prompt.js")], {
      input: JSON.stringify({
        session_id: "s1",
        cwd: project,
        hook_event_name: "UserPromptSubmit",
        prompt: "/loop-status",
      }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: tmp },
    });
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout).reason).toContain("iteration 2/3");
  });
});
