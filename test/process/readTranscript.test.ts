import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanTranscriptEnd, tallyLoopUsage } from "../../src/io/readTranscript.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const dir = mkdtempSync(join(tmpdir(), "cl-transcript-"));
const zero = { transcript: "", offset: 0, total: 0, byModel: {}, lastId: "", lastTokens: 0 };

describe("reading a transcript from its end", () => {
  it("finds the reply and the current turn; tolerates a torn last line", () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(
      path,
      `${jsonl(
        user("old"),
        assistant("m0", "old reply", 100),
        user("go"),
        assistant("m1", "step", 5),
        user([{ type: "tool_result", content: "" }]),
        assistant("m2", "final", 7),
      )}{"type":"assis`,
    );
    const scan = scanTranscriptEnd(path)!;
    expect(scan.reply).toEqual({ reply: "final", complete: true });
    expect(scan.turn.map((e) => e.type)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(tallyLoopUsage(path, scan, zero)).toMatchObject({ total: 12, offset: scan.end });
    expect(scan.end).toBeLessThan(scan.size);
  });

  it("counts only what was appended since the remembered offset", () => {
    const path = join(dir, "b.jsonl");
    writeFileSync(path, jsonl(user("go"), assistant("m1", "one", 10)));
    const first = tallyLoopUsage(path, scanTranscriptEnd(path)!, zero);
    expect(first.total).toBe(10);
    appendFileSync(path, jsonl(user("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]"), assistant("m2", "two", 20)));
    const second = tallyLoopUsage(path, scanTranscriptEnd(path)!, first);
    expect(second.total).toBe(30);
    const again = tallyLoopUsage(path, scanTranscriptEnd(path)!, second);
    expect(again.total).toBe(30);
  });

  it("counts turns appended since the offset beyond the one the scan covers, once each", () => {
    const path = join(dir, "c.jsonl");
    writeFileSync(path, jsonl(user("go"), assistant("m1", "one", 10)));
    const first = tallyLoopUsage(path, scanTranscriptEnd(path)!, zero);
    // Two turns land before the next stop (e.g. a stop the cap swallowed): the scan sees only the last.
    appendFileSync(path, jsonl(user("again"), assistant("m2", "two", 20), user("more"), assistant("m3", "three", 40)));
    const scan = scanTranscriptEnd(path)!;
    expect(scan.turn.map((e) => e.messageId ?? "user")).toEqual(["user", "m3"]);
    expect(tallyLoopUsage(path, scan, first).total).toBe(70);
    // Past a torn, unfinished last line the offset does not move, and nothing is counted twice.
    appendFileSync(path, '{"type":"assistant","message":{"id":"m4","usage":{"output_tokens":5');
    const later = tallyLoopUsage(path, scanTranscriptEnd(path)!, tallyLoopUsage(path, scan, first));
    expect(later.total).toBe(70);
  });

  it("never reads the start of a large transcript", () => {
    const path = join(dir, "big.jsonl");
    // 20 MB of lines that would count a million tokens each if they were read.
    const junk = `${JSON.stringify(assistant("old", "x".repeat(900), 1_000_000))}\n`;
    writeFileSync(path, junk.repeat(Math.ceil((20 * 1024 * 1024) / junk.length)));
    appendFileSync(path, jsonl(user("go"), assistant("m1", "done", 3)));
    const scan = scanTranscriptEnd(path)!;
    expect(scan.reply.reply).toBe("done");
    expect(tallyLoopUsage(path, scan, zero).total).toBe(3);
  });

  it("a missing transcript is no transcript", () => {
    expect(scanTranscriptEnd(join(dir, "nope.jsonl"))).toBeUndefined();
  });

  it("a last line without its line break is read when it parses, and not marked consumed", () => {
    const path = join(dir, "one.jsonl");
    writeFileSync(path, JSON.stringify(assistant("m", "only", 2)));
    const scan = scanTranscriptEnd(path)!;
    expect(scan.reply).toEqual({ reply: "only", complete: false });
    expect(scan.end).toBe(0);
  });
});
