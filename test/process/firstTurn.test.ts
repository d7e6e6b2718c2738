// A session's first reply written above the prompt it answers (Claude Code 2.1.197, docs/REFERENCE.md "Leave it running"):
// the loop's first Stop counts it, reads its text and sees its calls. The Stop bundle fed JSON on stdin.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprintToolCalls, readRefusedTools } from "../../src/core/transcript.js";
import { scanTranscriptEnd } from "../../src/io/readTranscript.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";
import { jsonl } from "../support/transcriptLines.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts");
/** Captured on 2.1.197: line 3 is the first reply (a Bash call, 26 output tokens) above the prompt it answers. */
const CAPTURED = readFileSync(join(FIXTURES, "first-turn-call-above-prompt.2.1.197.jsonl"), "utf8")
  .split(/(?<=\n)/)
  .filter((line) => line.trim());
const CALL_LINE = 2;
const FIRST_TOKENS = 26;

const line = (obj: object) => `${JSON.stringify(obj)}\n`;
/** The reply that ends the first turn, after the call's result. */
const finalReply = (text: string, tokens: number) =>
  line({
    parentUuid: "634c9bc5-829b-4097-aa76-29ea2b453269",
    isSidechain: false,
    type: "assistant",
    message: {
      id: "msg_e2e_2",
      role: "assistant",
      model: "claude-opus-4-8",
      content: [{ type: "text", text }],
      usage: { output_tokens: tokens },
    },
    uuid: "f1a1b2c3-0000-4000-8000-000000000002",
    timestamp: "2026-11-30T19:31:16.000Z",
  });

const transcriptOf = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "cl-transcript-")), "session.jsonl");
  writeFileSync(path, text);
  return path;
};
/** The same lines with the call moved below the prompt and attachments, where a later version writes it. */
const inFileOrder = (lines: string[]) => {
  const call = lines[CALL_LINE] ?? "";
  const rest = lines.filter((_, i) => i !== CALL_LINE);
  return [...rest.slice(0, -1), call, ...rest.slice(-1)];
};
const stop = (root: string, transcript: string, over: object = {}) =>
  runHook("stop", {
    session_id: "90d8abc3-93da-422f-a3a5-e3b5b9fbb4e6",
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    transcript_path: transcript,
    last_assistant_message: "Made the file.",
    ...over,
  });
const sidecarOf = (statePath: string) =>
  JSON.parse(readFileSync(statePath.replace(/\.local\.md$/, ".runtime.json"), "utf8")) as Record<string, unknown>;

describe("a session's first reply written above its prompt (2.1.197)", () => {
  it("the loop's first Stop counts its output tokens: in the history, the sidecar and max_tokens", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 5\n---\nMake the file\n");
    const transcript = transcriptOf(CAPTURED.join("") + finalReply("Made the file.", 9));
    const run = stop(root, transcript);
    expect(run.code).toBe(2);
    expect(readHistory(historyPath).map((h) => h.output_tokens)).toEqual([FIRST_TOKENS + 9]);
    expect(sidecarOf(statePath)).toMatchObject({ output_tokens: FIRST_TOKENS + 9 });

    const limited = makeProject(`---\nmax_tokens: ${FIRST_TOKENS + 5}\n---\nMake the file\n`);
    const ended = stop(limited.root, transcript);
    expect(ended.code).toBe(0);
    expect(readHistory(limited.historyPath).map((h) => h.output_tokens)).toEqual([FIRST_TOKENS + 9]);
  });

  it("with no last_assistant_message, a first reply that is only text above the prompt is the reply read", () => {
    const { root } = makeProject("---\ncompletion_promise: SHIP IT\n---\nMake the file\n");
    const call = JSON.parse(CAPTURED[CALL_LINE] ?? "{}");
    call.message.content = [{ type: "text", text: "SHIP IT" }];
    call.message.stop_reason = "end_turn";
    const lines = CAPTURED.slice(0, -1).map((l, i) => (i === CALL_LINE ? line(call) : l));
    const run = stop(root, transcriptOf(lines.join("")), { last_assistant_message: undefined });
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain("completed");
  });

  it("the first turn's calls and refusals are the turn's: as if the call stood below its prompt", () => {
    const above = transcriptOf(CAPTURED.join("") + finalReply("Made the file.", 9));
    const below = transcriptOf(inFileOrder(CAPTURED).join("") + finalReply("Made the file.", 9));
    const scanAbove = scanTranscriptEnd(above, 1, { firstRead: true });
    const scanBelow = scanTranscriptEnd(below, 1, { firstRead: true });
    expect(fingerprintToolCalls(scanBelow?.turn ?? [])).not.toBe("");
    expect(fingerprintToolCalls(scanAbove?.turn ?? [])).toBe(fingerprintToolCalls(scanBelow?.turn ?? []));
    // The same call refused (2.1.332's mark on its result): named by the call above the prompt.
    const result = JSON.parse(CAPTURED.at(-1) ?? "{}");
    const refused = transcriptOf(
      CAPTURED.slice(0, -1).join("") + line({ ...result, permissionDecision: { decision: "reject" } }),
    );
    expect(readRefusedTools(scanTranscriptEnd(refused, 1, { firstRead: true })?.turn ?? [])).toEqual(["Bash"]);
  });

  it("a loop started at a later prompt takes in none of the turn before it", () => {
    const earlier = (id: string, at: string, tokens: number) => ({
      type: "assistant",
      message: {
        id,
        role: "assistant",
        model: "m",
        content: [{ type: "text", text: "x" }],
        usage: { output_tokens: tokens },
      },
      timestamp: at,
    });
    const prompt = (text: string, at: string) => ({
      type: "user",
      message: { role: "user", content: text },
      timestamp: at,
    });
    const path = transcriptOf(
      jsonl(
        prompt("hello", "2026-11-30T19:00:00.000Z"),
        earlier("m0", "2026-11-30T19:00:01.000Z", 100),
        { type: "system", subtype: "turn_duration", timestamp: "2026-11-30T19:00:02.000Z" },
        prompt("/loop-start Goal", "2026-11-30T19:01:00.000Z"),
        earlier("m1", "2026-11-30T19:01:01.000Z", 7),
      ),
    );
    expect(scanTranscriptEnd(path, 1, { firstRead: true })?.turn.map((e) => e.messageId ?? e.texts[0])).toEqual([
      "/loop-start Goal",
      "m1",
    ]);
    const { root, historyPath } = makeProject("---\nmax_iterations: 5\n---\nGoal\n");
    expect(stop(root, path, { last_assistant_message: "x" }).code).toBe(2);
    expect(readHistory(historyPath).map((h) => h.output_tokens)).toEqual([7]);
  });
});
