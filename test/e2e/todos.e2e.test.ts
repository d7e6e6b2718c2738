// The todo reminder and the loop through the real Claude Code CLI, against files the CLI wrote.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "./support/messagesServer.js";
import { lastUserMessage, lastUserText, messageText } from "./support/requestText.js";
import type { MessagesServer, RecordedRequest } from "./support/messagesServer.js";
import {
  CLAUDE_VERSIONS,
  describeRun,
  hookResponses,
  hookSystemMessages,
  initTools,
  REPO_ROOT,
  runClaude,
  taskDirFor,
} from "./support/runClaude.js";
import type { RunClaudeResult } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const TODO_MARKER = "[SYSTEM REMINDER - TODO CONTINUATION]";
const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const ALPHA = "Alpha: write the parser";
// 2.1.330 gives its default model no todo tools (TaskCreate, TodoWrite…) unless the user opts in with
// this variable (older models get them without it); 2.1.197 offers them anyway. See support/README.md.
const TODO_TOOLS_ON = { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" };
const BETA = "Beta: document the flags";

const t = perTest();
/** The running test's server: `runRequests` reads it. */
let server: MessagesServer | undefined;

/** The repo root once it is a plugin; until then a temp plugin holding a copy of hooks/. */
function pluginDir(root: string): string {
  if (fs.existsSync(path.join(REPO_ROOT, ".claude-plugin", "plugin.json"))) return REPO_ROOT;
  const dir = path.join(root, "plugin");
  fs.mkdirSync(path.join(dir, ".claude-plugin"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "continuation-loop", version: "0.0.0" }),
  );
  fs.cpSync(path.join(REPO_ROOT, "hooks"), path.join(dir, "hooks"), { recursive: true });
  return dir;
}

function setup(): { proj: string; home: string; plugin: string } {
  const tmp = t.tempDir("cl-e2e-todos-");
  const proj = path.join(tmp, "proj");
  fs.mkdirSync(proj);
  return { proj, home: path.join(tmp, "home"), plugin: pluginDir(tmp) };
}

/**
 * What UserPromptSubmit added for this request's prompt: the role:"system" messages from that
 * prompt on (older ones are history; see support/README.md §3).
 */
function promptContext(req: RecordedRequest, prompt: string): string {
  const msgs = req.body?.messages ?? [];
  let at = -1;
  msgs.forEach((m, i) => {
    if (m.role === "user" && messageText(m).includes(prompt)) at = i;
  });
  expect(at, `prompt ${prompt} not found in the request`).toBeGreaterThanOrEqual(0);
  return msgs
    .slice(at)
    .filter((m) => m.role === "system")
    .map(messageText)
    .join("\n");
}

/** Requests of one CLI run: the main requests that arrived between two counts. */
const runRequests = (from: number) => server!.mainRequests.slice(from);
/** Tool results in the request's last user message that came back as errors (none when the tools ran). */
const toolErrors = (req: RecordedRequest) => {
  const content = lastUserMessage(req)?.content;
  return Array.isArray(content) ? content.filter((b) => b.type === "tool_result" && b.is_error === true) : [];
};
const ok = (r: RunClaudeResult) => expect(r.code, describeRun(r)).toBe(0);
const readTask = (home: string, session: string, id: string) =>
  JSON.parse(fs.readFileSync(path.join(taskDirFor(home, session), `${id}.json`), "utf8")) as Record<string, unknown>;

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  describe("todo reminder through the real CLI", () => {
    it("TaskCreate ×2 → reminder on --resume; a loop continues with its own marker; TaskUpdate completes both → no reminder", async () => {
      const { proj, home, plugin } = setup();
      const sessionId = randomUUID();
      const promptRun2 = "PROMPT-TWO: continue please";
      server = await t.server([
        // run 1
        toolUse("TaskCreate", {
          subject: ALPHA,
          description: "Parse the flags file",
          activeForm: "Writing the parser",
        }),
        toolUse("TaskCreate", { subject: BETA, description: "Describe every flag in the README" }),
        text("Planned two tasks."),
        // run 2: the loop is active; a premature promise is refused while the tasks are open
        text("All good. DONE"),
        toolUse("TaskUpdate", { taskId: "1", status: "completed" }),
        toolUse("TaskUpdate", { taskId: "2", status: "completed" }),
        text("Both tasks are complete. DONE"),
        // run 3
        text("Nothing left to do."),
      ]);
      const common = { baseUrl: server.url, cwd: proj, home, pluginDirs: [plugin], env: TODO_TOOLS_ON };

      // Run 1: no task list yet → no reminder; the CLI writes two task files.
      const r1 = await runClaude({ version, ...common, prompt: "PROMPT-ONE: plan the work", sessionId });
      ok(r1);
      const run1 = runRequests(0);
      expect(run1).toHaveLength(3);
      expect(initTools(r1)).toEqual(expect.arrayContaining(["TaskCreate", "TaskUpdate"]));
      // The inputs we scripted fit the real TaskCreate schema, where the CLI sends it up front (2.1.197;
      // 2.1.330 defers it behind ToolSearch, and a scripted call of it runs all the same).
      const sentTools = (run1[0]!.body!.tools ?? []) as {
        name: string;
        input_schema: { required: string[]; properties: Record<string, unknown> };
      }[];
      const schema = sentTools.find((t) => t.name === "TaskCreate")?.input_schema;
      if (schema) {
        expect(schema.required.sort()).toEqual(["description", "subject"]);
        for (const key of ["subject", "description", "activeForm"])
          expect(Object.keys(schema.properties)).toContain(key);
      }
      expect(toolErrors(run1[1]!)).toEqual([]);
      expect(toolErrors(run1[2]!)).toEqual([]);
      expect(JSON.stringify(run1[0]!.body!.messages)).not.toContain(TODO_MARKER);
      expect(hookResponses(r1, "UserPromptSubmit").map((e) => [e.exit_code, e.stdout])).toEqual([[0, ""]]);
      expect(readTask(home, sessionId, "1")).toMatchObject({ id: "1", subject: ALPHA, status: "pending" });
      expect(readTask(home, sessionId, "2")).toMatchObject({ id: "2", subject: BETA, status: "pending" });

      // Run 2: start a loop that wants the todos done, then resume with a new prompt.
      const statePath = path.join(proj, ".claude", "continuation-loop.local.md");
      fs.mkdirSync(path.dirname(statePath), { recursive: true });
      fs.writeFileSync(
        statePath,
        '---\nmax_iterations: 3\ncompletion_promise: "DONE"\nrequire_todos_done: true\n---\nFinish the planned tasks.\n',
      );
      const r2 = await runClaude({ version, ...common, prompt: promptRun2, resume: sessionId });
      ok(r2);
      const run2 = runRequests(3);
      expect(run2).toHaveLength(4);
      const reminder = promptContext(run2[0]!, promptRun2);
      expect(reminder).toContain(TODO_MARKER);
      expect(reminder).toContain(`- [pending] ${ALPHA}\n- [pending] ${BETA}`);
      expect(reminder).not.toContain(LOOP_MARKER);
      expect(reminder).not.toContain("PROMPT-TWO");
      expect(lastUserText(run2[0]!)).toBe(promptRun2);
      // The premature DONE was refused: the Stop feedback carries the loop marker and the open tasks, not the todo marker.
      const feedback = lastUserText(run2[1]!);
      expect(feedback).toContain(`${LOOP_MARKER}\n`);
      expect(feedback).toContain("iteration 2/3");
      expect(feedback).toContain(ALPHA);
      expect(feedback).toContain(BETA);
      expect(feedback).not.toContain(TODO_MARKER);
      // The first Stop continued the loop: exit 2, or where the companion module runs, context it takes
      // (docs/REFERENCE.md "The companion module"); the second let the turn end.
      const stops = hookResponses(r2, "Stop");
      expect(stops).toHaveLength(2);
      expect(stops[0]!.exit_code === 2 || String(stops[0]!.stdout).includes(LOOP_MARKER)).toBe(true);
      expect(stops[1]!.exit_code).toBe(0);
      expect(String(stops[1]!.stdout ?? "")).not.toContain(LOOP_MARKER);
      expect(fs.existsSync(statePath)).toBe(false);
      expect(hookSystemMessages(r2.transcriptPath, "Stop").join("\n")).toMatch(/completed/i);
      expect(readTask(home, sessionId, "1")).toMatchObject({ subject: ALPHA, status: "completed" });
      expect(readTask(home, sessionId, "2")).toMatchObject({ subject: BETA, status: "completed" });

      // Run 3: everything is done → no reminder, the hook printed nothing.
      const r3 = await runClaude({ version, ...common, prompt: "PROMPT-THREE: anything else?", resume: sessionId });
      ok(r3);
      const run3 = runRequests(7);
      expect(run3).toHaveLength(1);
      expect(promptContext(run3[0]!, "PROMPT-THREE")).not.toContain(TODO_MARKER);
      expect(hookResponses(r3, "UserPromptSubmit").map((e) => [e.exit_code, e.stdout])).toEqual([[0, ""]]);
      expect(server.exhausted).toBe(false);
      expect(r3.result?.result).toBe("Nothing left to do.");
    });

    it("TodoWrite (tasks disabled): the last call in the real transcript drives the reminder", async () => {
      const { proj, home, plugin } = setup();
      const sessionId = randomUUID();
      const item = (content: string, status: string) => ({ content, status, activeForm: `${content}…` });
      server = await t.server([
        toolUse("TodoWrite", { todos: [item("Old plan", "pending")] }),
        toolUse("TodoWrite", {
          todos: [
            item("Read the spec", "completed"),
            item("Write the code", "pending"),
            item("Run the tests", "in_progress"),
          ],
        }),
        text("Planned."),
        toolUse("TodoWrite", {
          todos: [
            item("Read the spec", "completed"),
            item("Write the code", "completed"),
            item("Run the tests", "completed"),
          ],
        }),
        text("All done."),
        text("Nothing left."),
      ]);
      const common = {
        baseUrl: server.url,
        cwd: proj,
        home,
        pluginDirs: [plugin],
        env: { ...TODO_TOOLS_ON, CLAUDE_CODE_ENABLE_TASKS: "0" },
      };

      const r1 = await runClaude({ version, ...common, prompt: "plan", sessionId });
      ok(r1);
      expect(initTools(r1)).toContain("TodoWrite");
      expect(initTools(r1)).not.toContain("TaskCreate");
      expect(fs.existsSync(taskDirFor(home, sessionId))).toBe(false);

      const r2 = await runClaude({ version, ...common, prompt: "PROMPT-TWO", resume: sessionId });
      ok(r2);
      const reminder = promptContext(server.mainRequests[3]!, "PROMPT-TWO");
      expect(reminder).toContain(`${TODO_MARKER}\n`);
      expect(reminder).toContain("- [in_progress] Run the tests\n- [pending] Write the code");
      expect(reminder).not.toContain("Old plan");
      expect(reminder).not.toContain("Read the spec");

      const r3 = await runClaude({ version, ...common, prompt: "PROMPT-THREE", resume: sessionId });
      ok(r3);
      expect(server.mainRequests).toHaveLength(6);
      expect(promptContext(server.mainRequests[5]!, "PROMPT-THREE")).not.toContain(TODO_MARKER);
      expect(hookResponses(r3, "UserPromptSubmit").map((e) => e.stdout)).toEqual([""]);
    });
  });
});
