// A permission prompt answered before the next Stop (docs/REFERENCE.md "Leave it running"): the Notification hook
// records the call asked about; once that call has its result in its transcript (the tool ran, or was refused),
// status and status --all no longer say the loop waits. The bundled hooks and helper, fed transcripts as the pinned
// versions write them (test/tui/permissionAnswer.tui.test.ts measures the real ones).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";
import { runCli } from "./support/cli.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts");
const SESSION = "0b7e5a1c-0000-4000-8000-000000000001";
const WAITING = /waiting for your permission \((Bash|Bash, from a subagent)\) since/;

const line = (entry: object) => `${JSON.stringify(entry)}\n`;
const reply = (content: object[], sidechain = false) =>
  line({ type: "assistant", isSidechain: sidechain, message: { role: "assistant", id: "m", content } });
const call = (name: string, id: string) => ({ type: "tool_use", id, name, input: {} });
const result = (id: string, sidechain = false) =>
  line({
    type: "user",
    isSidechain: sidechain,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "done" }] },
  });

function project() {
  const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${SESSION}"\nnotify: false\n---\nGoal\n`);
  const transcript = join(p.root, "sess.jsonl");
  const sidecar = () => JSON.parse(readFileSync(join(p.root, ".claude", "continuation-loop.runtime.json"), "utf8"));
  const notify = (message = "Claude needs your permission to use Bash") =>
    runHook("session", {
      session_id: SESSION,
      cwd: p.root,
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message,
      transcript_path: transcript,
    });
  const status = () =>
    String(runHook("prompt", { session_id: SESSION, cwd: p.root, prompt: "/loop-status" }).json?.reason);
  const statusAll = () =>
    runCli(["status", "--all"], { cwd: p.root, env: { CONTINUATION_LOOP_CLAUDE: "/nonexistent" } });
  return { ...p, transcript, sidecar, notify, status, statusAll };
}

describe("a permission prompt answered while the turn goes on", () => {
  it("records the call asked about; once it has its result, status and status --all say no wait", () => {
    const p = project();
    writeFileSync(p.transcript, reply([call("Bash", "toolu_main")]));
    expect(p.notify()).toMatchObject({ code: 0, stdout: "" });
    expect(p.sidecar().permission_wait).toMatchObject({
      tool: "Bash",
      transcript: p.transcript,
      call: { id: "toolu_main", transcript: p.transcript },
    });
    expect(p.status()).toMatch(WAITING);
    expect(p.statusAll().stdout).toMatch(/waiting for your permission \(Bash\)/);

    // Yes: the tool ran, its result is written, the model works on (no Stop yet).
    appendFileSync(p.transcript, result("toolu_main") + reply([{ type: "text", text: "Now the tests" }]));
    const after = p.status();
    expect(after).not.toMatch(WAITING);
    expect(after).not.toMatch(/refused or cancelled/);
    expect(p.statusAll().stdout).not.toMatch(/waiting for your permission/);
    // The record is the Stop's to clear: reading never writes the sidecar.
    expect(p.sidecar().permission_wait).toMatchObject({ call: { id: "toolu_main" } });
  });

  it("No with the turn ended (the refusal, then the interruption): status says the prompt was closed", () => {
    const p = project();
    writeFileSync(p.transcript, reply([call("Bash", "toolu_main")]));
    p.notify();
    appendFileSync(
      p.transcript,
      result("toolu_main") +
        line({
          type: "user",
          message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user for tool use]" }] },
        }),
    );
    expect(p.status()).toMatch(/permission prompt \(Bash\) was refused or cancelled/);
    expect(p.statusAll().stdout).not.toMatch(/waiting for your permission/);
  });

  it("a subagent's call: answered when its result is in the subagent's own transcript", () => {
    const p = project();
    writeFileSync(p.transcript, reply([call("Agent", "toolu_agent")]));
    const subagent = join(p.root, "sess", "subagents", "agent-a1.jsonl");
    mkdirSync(join(p.root, "sess", "subagents"), { recursive: true });
    writeFileSync(subagent, reply([call("Bash", "toolu_sub")], true));
    p.notify("Claude needs your permission");
    expect(p.sidecar().permission_wait).toMatchObject({
      tool: "Bash, from a subagent",
      call: { id: "toolu_sub", transcript: subagent },
    });
    expect(p.status()).toMatch(WAITING);
    appendFileSync(subagent, result("toolu_sub", true));
    expect(p.status()).not.toMatch(WAITING);
  });

  it("2.1.197's first turn, its call written above the prompt it answers: the call is found and its result answers it", () => {
    // Captured from test/tui/permissionAnswer.tui.test.ts on 2.1.197: the reply's Bash call
    // stands above the prompt and attachments it answers, though its time is theirs plus a moment.
    const captured = readFileSync(join(FIXTURES, "first-turn-call-above-prompt.2.1.197.jsonl"), "utf8");
    const lines = captured.split(/(?<=\n)/);
    const p = project();
    writeFileSync(p.transcript, lines.slice(0, -1).join(""));
    p.notify("Claude needs your permission");
    expect(p.sidecar().permission_wait).toMatchObject({
      tool: "Bash",
      call: { id: "toolu_e2e_0001", transcript: p.transcript },
    });
    expect(p.status()).toMatch(WAITING);
    appendFileSync(p.transcript, lines.at(-1) ?? "");
    expect(p.status()).not.toMatch(WAITING);
    expect(p.statusAll().stdout).not.toMatch(/waiting for your permission/);
  });

  it("a call the transcript did not show yet: a call written since, with its result", () => {
    const p = project();
    writeFileSync(p.transcript, line({ type: "user", message: { role: "user", content: "Make the file" } }));
    p.notify("Claude needs your permission");
    expect(p.sidecar().permission_wait).toMatchObject({ tool: "a tool", call: { id: "", transcript: p.transcript } });
    appendFileSync(p.transcript, reply([call("Bash", "toolu_late")]));
    expect(p.status()).toMatch(/waiting for your permission \(a tool\) since/);
    appendFileSync(p.transcript, result("toolu_late"));
    expect(p.status()).not.toMatch(/waiting for your permission \(a tool\) since/);
  });

  it("a message naming another tool than the call found: only a call written since answers it", () => {
    const p = project();
    writeFileSync(p.transcript, reply([call("Edit", "toolu_edit")]));
    p.notify();
    expect(p.sidecar().permission_wait.call).toMatchObject({ id: "" });
    appendFileSync(p.transcript, result("toolu_edit"));
    expect(p.status()).toMatch(WAITING);
  });

  it("a sidecar written before the call was recorded still reads: the wait shows until a Stop or Esc", () => {
    const p = project();
    writeFileSync(p.transcript, reply([call("Bash", "toolu_main")]));
    p.notify();
    const path = join(p.root, ".claude", "continuation-loop.runtime.json");
    const old = p.sidecar();
    old.permission_wait.call = undefined;
    writeFileSync(path, JSON.stringify(old));
    appendFileSync(p.transcript, result("toolu_main"));
    expect(p.status()).toMatch(WAITING);
  });
});
