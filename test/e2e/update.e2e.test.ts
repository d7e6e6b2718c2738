// Updating an installed plugin (README "Updating"), through each pinned Claude Code's own `claude plugin`
// commands in throwaway HOMEs: installed at the repository's version from a marketplace holding the package's
// files (added as a folder, and by URL from a git server), released one minor version on with `npm run release`
// in a clone and published there, then `claude plugin marketplace update` and `claude plugin update` bring it.
// A session runs the hooks from the folder a marketplace was added from, whatever the cache holds.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { git, gitEnv, makeReleaseRepo, nextMinor, readVersion, runRelease } from "../support/releaseRepo.js";
import { type GitServer, startGitServer } from "./support/gitServer.js";
import { type MessagesServer, startMessagesServer } from "./support/messagesServer.js";
import { CLAUDE_VERSIONS, type ClaudeVersion } from "./support/runClaude.js";
import { CLI } from "./support/runCommand.js";

const PLUGIN = "continuation-loop@continuation-loop";
let temp: string | undefined;
let server: GitServer | undefined;
let api: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  await api?.close();
  if (temp) fs.rmSync(temp, { recursive: true, force: true });
  temp = server = api = undefined;
});

/** A process run to its end without blocking: the git server answers from this same process. */
function run(bin: string, args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** One person's Claude Code: its own HOME, offline. */
function person(version: ClaudeVersion, home: string) {
  fs.mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  const claude = async (...args: string[]) => {
    const r = await run(version.bin, ["plugin", ...args], home, env);
    expect(r.status, `claude plugin ${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(0);
    return r.stdout;
  };
  return {
    claude,
    /** The installed version as `claude plugin list --json` gives it, and the folder it runs from. */
    async installed(): Promise<{ version: string; installPath: string }> {
      const list = JSON.parse(await claude("list", "--json")) as Array<{
        id: string;
        version: string;
        installPath: string;
      }>;
      const entry = list.find((p) => p.id === PLUGIN);
      expect(entry, JSON.stringify(list)).toBeDefined();
      return { version: entry?.version ?? "", installPath: entry?.installPath ?? "" };
    },
    /**
     * The folder a session of this person's Claude Code runs the plugin's hooks from: `/loop-report` in `project`
     * (which holds a finished loop) names the helper beside the hook that answered, and no model turn is needed.
     */
    async sessionRoot(project: string, baseUrl: string): Promise<string> {
      const r = await run(version.bin, ["-p", "/continuation-loop:loop-report"], project, {
        ...env,
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: baseUrl,
      });
      const cli = /!node (\S+)\/hooks\/cli\.js report/.exec(r.stdout + r.stderr)?.[1];
      expect(cli, r.stdout + r.stderr).toBeDefined();
      return fs.realpathSync(cli ?? "");
    },
    /** The versions in the plugin cache, `~/.claude/plugins/cache/<marketplace>/<plugin>/<version>/`. */
    cached: () =>
      fs.readdirSync(path.join(home, ".claude", "plugins", "cache", "continuation-loop", "continuation-loop")),
  };
}

/**
 * The package's files (package.json and its `files`, what `npm pack` ships) from the maintainer's clone, committed
 * into the marketplace repository. Not the whole clone: Claude Code runs `npm ci` in an installed plugin whose
 * folder holds a lockfile, which would fetch every devDependency (CONTRIBUTING.md "The update test").
 */
function publish(clone: string, market: string, env: Record<string, string>): void {
  const files = ["package.json", ...JSON.parse(fs.readFileSync(path.join(clone, "package.json"), "utf8")).files];
  fs.mkdirSync(market, { recursive: true });
  for (const file of files) {
    fs.rmSync(path.join(market, file), { recursive: true, force: true });
    fs.cpSync(path.join(clone, file), path.join(market, file), { recursive: true });
  }
  if (!fs.existsSync(path.join(market, ".git"))) git(market, env, "init", "--quiet");
  git(market, env, "add", "-A");
  git(market, env, "commit", "--quiet", "-m", `continuation-loop ${readVersion(market)}`);
}

/** The version the installed plugin's own files and helper report. */
function reportedVersion(installPath: string, cwd: string): { manifest: string; doctor: string } {
  const manifest = readVersion(installPath, path.join(".claude-plugin", "plugin.json"));
  const doctor = spawnSync(process.execPath, [path.join(installPath, "hooks", "cli.js"), "doctor"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd },
    encoding: "utf8",
  });
  return { manifest, doctor: /^continuation-loop (\S+) doctor:/.exec(doctor.stdout)?.[1] ?? doctor.stdout };
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("an installed plugin moves to the released version after marketplace update and plugin update", async () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-update-e2e-"));
    const clone = path.join(temp, "clone");
    const market = path.join(temp, "market");
    const env = { ...gitEnv(path.join(temp, "maintainer")), CONTINUATION_LOOP_CLAUDE: version.bin };
    makeReleaseRepo(clone, env, true, "### Fixed\n\n- A fix the installed plugin should get.");
    publish(clone, market, env);
    server = await startGitServer(temp);
    const old = readVersion(market);
    const next = nextMinor(old);

    // The README's route (a folder), and a hosted marketplace's (a git URL).
    const routes = [
      { source: market, user: person(version, path.join(temp, "folder-user")) },
      { source: `${server.url}/market/.git`, user: person(version, path.join(temp, "git-user")) },
    ];
    // A project with a finished loop, for /loop-report to answer in.
    const project = path.join(temp, "project");
    fs.mkdirSync(project);
    for (const args of [["start", "Check the route"], ["stop"]])
      expect(
        spawnSync(process.execPath, [CLI, ...args], { cwd: project, env: { PATH: process.env.PATH ?? "" } }).status,
      ).toBe(0);
    api = await startMessagesServer([]);
    for (const { source, user } of routes) {
      await user.claude("marketplace", "add", source);
      await user.claude("install", PLUGIN);
      const { version: installed, installPath } = await user.installed();
      expect(installed).toBe(old);
      expect(user.cached()).toEqual([old]);
      // The folder route runs the folder itself, not its copy in the cache (README "Updating").
      expect(await user.sessionRoot(project, api.url)).toBe(fs.realpathSync(source === market ? market : installPath));
    }

    const release = runRelease(clone, env, next);
    expect(release.status, release.stdout + release.stderr).toBe(0);
    publish(clone, market, env);
    // Before any update, a new session on the folder route already runs the released files.
    expect(await routes[0]!.user.sessionRoot(project, api.url)).toBe(fs.realpathSync(market));
    expect(readVersion(market)).toBe(next);

    for (const { source, user } of routes) {
      const served = server.requests;
      await user.claude("marketplace", "update", "continuation-loop");
      if (source !== market) expect(server.requests).toBeGreaterThan(served);
      await user.claude("update", PLUGIN);
      const now = await user.installed();
      expect(now.version, source).toBe(next);
      expect(user.cached()).toContain(next);
      expect(path.basename(now.installPath)).toBe(next);
      expect(reportedVersion(now.installPath, temp)).toEqual({ manifest: next, doctor: next });
      expect(await user.sessionRoot(project, api.url)).toBe(
        fs.realpathSync(source === market ? market : now.installPath),
      );
      console.info(`updated on ${version.name} from ${source}: ${old} → ${now.version}, ${now.installPath}`);
    }
  });
});
