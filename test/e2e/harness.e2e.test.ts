// Smoke test of the e2e harness itself, with a throwaway plugin (not the product's hooks).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXHAUSTED_TEXT, text, toolUse } from "./support/messagesServer.js";
import { lastUserText, systemMessagesText } from "./support/requestText.js";
import { describeRun, hookResponses, hookSystemMessages, NEWEST, readJsonl, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

function setup(): { root: string; proj: string; home: string; plugin: string } {
  const tmp = t.tempDir("cl-e2e-harness-");
  const dirs = {
    root: tmp,
    proj: path.join(tmp, "proj"),
    home: path.join(tmp, "home"),
    plugin: path.join(tmp, "plugin"),
  };
  fs.mkdirSync(dirs.proj);
  return dirs;
}

/** A plugin whose hooks are small CommonJS scripts (`.cjs`: no package.json around them). */
function writePlugin(dir: string, hooks: Record<string, string>): void {
  fs.mkdirSync(path.join(dir, ".claude-plugin"), { recursive: true });
  fs.mkdirSync(path.join(dir, "hooks"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "e2e-smoke", version: "0.0.0" }),
  );
  const registration: Record<string, unknown> = {};
  for (const [event, source] of Object.entries(hooks)) {
    fs.writeFileSync(path.join(dir, "hooks", `${event}.cjs`), source);
    registration[event] = [
      { hooks: [{ type: "command", command: `node "\${CLAUDE_PLUGIN_ROOT}/hooks/${event}.cjs"` }] },
    ];
  }
  fs.writeFileSync(path.join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks: registration }));
}

// Blocks the first stop (exit 2, marker on stderr), then allows it with a systemMessage.
// Every call appends {input, CLAUDE_PROJECT_DIR} to calls.jsonl beside the script.
const STOP_BLOCK_ONCE = `
const fs = require('fs'), path = require('path');
const log = path.join(__dirname, 'calls.jsonl');
let raw = '';
process.stdin.on('data', (d) => { raw += d; }).on('end', () => {
  const n = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\\n').filter(Boolean).length : 0;
  fs.appendFileSync(log, JSON.stringify({ input: JSON.parse(raw), projectDir: process.env.CLAUDE_PROJECT_DIR }) + '\\n');
  if (n === 0) { process.stderr.write('CONTINUE-MARKER'); process.exit(2); }
  process.stdout.write(JSON.stringify({ systemMessage: 'SMOKE-DONE' }));
});
`;

// The harness itself, on the newest pin: every e2e case of the oldest pin runs through it too.
describe.each([NEWEST])("Claude Code %s", (version) => {
  describe("e2e harness", () => {
    it("scripts a session whose Stop hook blocks once", async () => {
      const { proj, home, plugin } = setup();
      writePlugin(plugin, { Stop: STOP_BLOCK_ONCE });
      const server = await t.server([text("first reply"), text("second reply")]);
      const sessionId = randomUUID();

      // The outer process may itself run inside Claude Code: nothing must leak.
      const saved = process.env.CLAUDE_PROJECT_DIR;
      process.env.CLAUDE_PROJECT_DIR = "/leaked/from/outside";
      const r = await runClaude({
        version,
        prompt: "hello",
        baseUrl: server.url,
        cwd: proj,
        home,
        pluginDirs: [plugin],
        sessionId,
      }).finally(() => {
        if (saved === undefined) delete process.env.CLAUDE_PROJECT_DIR;
        else process.env.CLAUDE_PROJECT_DIR = saved;
      });

      expect(r.code, describeRun(r)).toBe(0);
      expect(server.exhausted).toBe(false);
      const main = server.mainRequests;
      expect(main).toHaveLength(2);
      expect(lastUserText(main[0]!)).toContain("hello");
      expect(lastUserText(main[0]!)).not.toContain("CONTINUE-MARKER");
      // The hook's stderr reaches the model in the next user message (the wrapper around it is
      // Claude Code's own and differs between versions: see support/README.md).
      expect(lastUserText(main[1]!)).toContain("CONTINUE-MARKER");

      expect(r.sessionId).toBe(sessionId);
      expect(r.result?.result).toBe("second reply");
      expect(r.transcriptPath && fs.existsSync(r.transcriptPath)).toBe(true);
      expect(hookSystemMessages(r.transcriptPath, "Stop")).toEqual(["SMOKE-DONE"]);
      expect(hookResponses(r, "Stop").map((e) => e.exit_code)).toEqual([2, 0]);

      const calls = readJsonl(path.join(plugin, "hooks", "calls.jsonl")) as {
        input: Record<string, unknown>;
        projectDir: string;
      }[];
      expect(calls.map((c) => c.input.stop_hook_active)).toEqual([false, true]);
      expect(calls.map((c) => c.input.last_assistant_message)).toEqual(["first reply", "second reply"]);
      expect(calls[0]?.input.session_id).toBe(sessionId);
      expect(calls[0]?.projectDir).toBe(fs.realpathSync(proj));
    });

    it("flags an exhausted script instead of hanging", async () => {
      const { proj, home } = setup();
      const server = await t.server([]);
      const r = await runClaude({ version, prompt: "hello", baseUrl: server.url, cwd: proj, home });
      expect(r.code, describeRun(r)).toBe(0);
      expect(server.exhausted).toBe(true);
      expect(r.result?.result).toBe(EXHAUSTED_TEXT);
    });

    it("runs a tool call, adds hook context, and resumes the same session", async () => {
      const { proj, home, plugin } = setup();
      writePlugin(plugin, {
        UserPromptSubmit: `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX-MARKER' } }));`,
      });
      const server = await t.server([
        toolUse("Bash", { command: "echo tool-ran", description: "echo" }),
        text("after tool"),
        text("resumed reply"),
      ]);
      const sessionId = randomUUID();
      const common = { baseUrl: server.url, cwd: proj, home, pluginDirs: [plugin] };
      const r1 = await runClaude({ version, ...common, prompt: "first", sessionId, allowedTools: ["Bash(echo:*)"] });
      expect(r1.code, describeRun(r1)).toBe(0);
      const r2 = await runClaude({ version, ...common, prompt: "second", resume: sessionId });
      expect(r2.code, describeRun(r2)).toBe(0);

      const main = server.mainRequests;
      expect(main).toHaveLength(3);
      expect(lastUserText(main[1]!)).toBe("tool-ran");
      // additionalContext lands in a role:"system" message, not in the user message.
      expect(systemMessagesText(main[0]!)).toContain("CTX-MARKER");
      expect(lastUserText(main[0]!)).not.toContain("CTX-MARKER");
      expect(lastUserText(main[2]!)).toBe("second");
      expect(r2.sessionId).toBe(sessionId);
      expect(r2.transcriptPath).toBe(r1.transcriptPath);
      expect(r2.result?.result).toBe("resumed reply");
    });
  });
});
