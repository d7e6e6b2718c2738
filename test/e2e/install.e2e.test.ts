// Installing into a project and as a marketplace plugin, through the real Claude Code CLI
// (offline, scripted model), and `claude plugin validate`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HISTORY, LOOP_MARKER, Scratch, tree } from "./loopSupport.js";
import { text } from "./support/messagesServer.js";
import { lastUserText, systemMessagesText } from "./support/requestText.js";
import { CLAUDE_VERSIONS, describeRun, readJsonl, REPO_ROOT, runClaude } from "./support/runClaude.js";

let scratch: Scratch | undefined;
const setup = () => (scratch = new Scratch());

afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  describe("an installed project (no --plugin-dir)", () => {
    it("install twice changes nothing, a loop runs, and uninstall restores the original settings", async () => {
      const sc = setup();
      const { home, tmp } = sc;
      const proj = path.join(tmp, "installed");
      fs.cpSync(path.join(REPO_ROOT, "test/fixtures/install/existing"), proj, { recursive: true });
      const runtime = /^(own-stop\.log|\.claude\/continuation-loop\.history\.jsonl)$/;
      const original = tree(proj, runtime);

      expect(sc.cli(["install", "--project", proj]).code).toBe(0);
      const installed = tree(proj, runtime);
      const again = sc.cli(["install", "--project", proj]);
      expect(again.stdout).toContain("nothing changed");
      expect(tree(proj, runtime)).toEqual(installed);

      const s = await sc.server([text("First draft."), text("Final version. DONE")]);
      const r = await runClaude({
        version,
        prompt: "/loop-start --max-iterations 4 --completion-promise DONE Write the summary",
        baseUrl: s.url,
        cwd: proj,
        home,
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(s.mainRequests).toHaveLength(2);
      expect(systemMessagesText(s.mainRequests[0]!)).toContain("Write the summary");
      // No plugin is loaded: the continuation can only come from the hooks install wrote.
      expect(lastUserText(s.mainRequests[1]!)).toContain(LOOP_MARKER);
      expect(readJsonl(path.join(proj, HISTORY)).at(-1)).toMatchObject({
        reason: "completed",
        iteration: 2,
        promise: "DONE",
      });
      // The project's own Stop hook was kept and ran beside ours.
      expect(fs.readFileSync(path.join(proj, "own-stop.log"), "utf8")).toContain("ran");

      expect(sc.cli(["uninstall", "--project", proj]).code).toBe(0);
      expect(tree(proj, runtime)).toEqual(original);
      expect(JSON.parse(fs.readFileSync(path.join(proj, ".claude/settings.json"), "utf8"))).toEqual(
        JSON.parse(original[".claude/settings.json"]!),
      );
    });
  });

  describe("plugin packaging", () => {
    it.each([".", ".claude-plugin/plugin.json"])("claude plugin validate %s passes", (target) => {
      const { home } = setup();
      const r = spawnSync(version.bin, ["plugin", "validate", target], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: home },
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      // The exit status is the verdict, and no error is reported (2.1.330 adds advisory plugin-directory
      // warnings, e.g. no icon, that do not change the result).
      expect(r.stdout + r.stderr).not.toMatch(/error/i);
    });

    it("installs from the marketplace and runs a loop without --plugin-dir", async () => {
      const sc = setup();
      const { proj, home, tmp } = sc;
      // What a clone of the repository holds for the plugin (node_modules is never needed).
      const market = path.join(tmp, "market");
      for (const p of ["hooks", "templates", ".claude/commands", ".claude-plugin", "package.json"])
        fs.cpSync(path.join(REPO_ROOT, p), path.join(market, p), { recursive: true });
      const env = {
        PATH: process.env.PATH ?? "",
        HOME: home,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      };
      for (const args of [
        ["plugin", "marketplace", "add", market],
        ["plugin", "install", "continuation-loop@continuation-loop"],
      ]) {
        const r = spawnSync(version.bin, args, { cwd: proj, encoding: "utf8", env });
        expect(r.status, r.stdout + r.stderr).toBe(0);
      }
      const s = await sc.server([text("Started."), text("All set: DONE")]);
      const r = await runClaude({
        version,
        prompt: "/continuation-loop:loop-start --max-iterations 3 --completion-promise DONE Ship the release notes",
        baseUrl: s.url,
        cwd: proj,
        home,
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(s.mainRequests).toHaveLength(2);
      expect(readJsonl(path.join(proj, HISTORY)).at(-1)).toMatchObject({
        reason: "completed",
        iteration: 2,
        goal: "Ship the release notes\n",
      });
      // doctor sees the enabled plugin and no second registration.
      const doctor = sc.cli(["doctor", "--project", proj]);
      expect(doctor.stdout).toContain("the continuation-loop plugin is enabled in settings");
      expect(doctor.code, doctor.stdout).toBe(0);
    });
  });
});
