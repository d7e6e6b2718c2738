// Transcripts that conversation commands leave behind, recorded with the real CLI (docs/REFERENCE.md "Several
// loops"): a second terminal's turn written into the loop's session, and a compaction's summary written below the
// reply of the turn it happened in. The Stop bundle fed JSON on stdin.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanTranscriptEnd } from "../../src/io/readTranscript.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts");
const linesOf = (name: string) =>
  readFileSync(join(FIXTURES, name), "utf8")
    .split(/(?<=\n)/)
    .filter((line) => line.trim());
const textOf = (line: string): string => {
  const content = JSON.parse(line)?.message?.content;
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? "").join("") : "";
};

/**
 * Captured on 2.1.332 with the module: a loop's session, and `claude --resume <id>` in a second terminal while its
 * third turn was in flight; the second terminal's prompt and its reply (5000 output tokens) lie above the loop's
 * third reply. Large attachments are left out of the fixture; every line's ids are as written.
 */
const RESUMED = linesOf("second-terminal-resume.2.1.332.jsonl");
/** Captured on 2.1.197: auto-compaction inside a loop's turn, its summary written below the reply. */
const COMPACTED = linesOf("auto-compact-summary-below-reply.2.1.197.jsonl");

const transcriptAt = () => join(mkdtempSync(join(tmpdir(), "cl-transcript-")), "session.jsonl");
const stop = (root: string, transcript: string, over: object = {}) =>
  runHook("stop", {
    session_id: "3a586922-c8d2-426d-9a71-4198db269fd0",
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    transcript_path: transcript,
    ...over,
  });

describe("a second Claude Code process writing into the loop's session (claude --resume ID)", () => {
  it("its turn's output tokens are not the loop's: not in the history, nor against max_tokens", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 9\nmax_tokens: 1000\n---\nWork on the thing\n");
    const transcript = transcriptAt();
    const first = RESUMED.findIndex((line) => textOf(line) === "Reply 1.");
    writeFileSync(transcript, RESUMED.slice(0, first + 1).join(""));
    expect(stop(root, transcript, { last_assistant_message: "Reply 1." }).code).toBe(2);
    writeFileSync(transcript, RESUMED.join(""));
    const run = stop(root, transcript, { last_assistant_message: "Reply 2." });
    expect(run.code).toBe(2);
    const history = readHistory(historyPath);
    const counted = history.map((h) => Number(h.output_tokens));
    expect(counted).toHaveLength(2);
    expect((counted[1] ?? 0) - (counted[0] ?? 0)).toBe(102);
    // One model answered the loop's turns: the second terminal's placeholder reply adds no other to the tally.
    expect(Object.values(history[1]?.tokens_by_model ?? {})).toEqual([counted[1]]);
  });
});

describe("a compaction inside a loop's turn (Claude Code 2.1.197 writes the summary below the reply)", () => {
  it("the reply read from the transcript is the one above the summary, and it can complete the loop", () => {
    const transcript = transcriptAt();
    writeFileSync(transcript, COMPACTED.join(""));
    expect(scanTranscriptEnd(transcript)?.reply).toEqual({ reply: "Reply 4.", complete: true });

    const promised = COMPACTED.map((line) =>
      textOf(line) === "Reply 4." ? line.replace('"text":"Reply 4."', '"text":"Done. SHIP IT"') : line,
    );
    writeFileSync(transcript, promised.join(""));
    const { root } = makeProject("---\ncompletion_promise: SHIP IT\n---\nWork on the thing\n");
    const run = stop(root, transcript);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain("completed");
  });
});
