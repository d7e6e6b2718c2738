// Where a hold for background work stands by the session transcript's end (src/io/readTranscript.ts readHoldNow):
// a held task's notification, or Esc after the hold, written since the hold's Stop; read from the end, never before
// the offset that Stop read to.
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { namesFinishedTask } from "../../src/core/protocol.js";
import { readHoldNow } from "../../src/io/readTranscript.js";

const NOTIFIED = (id: string) =>
  `<task-notification>\n<task-id>${id}</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<status>completed</status>\n</task-notification>`;
const line = (entry: unknown) => `${JSON.stringify(entry)}\n`;
const reply = (text: string, sidechain = false) =>
  line({
    type: "assistant",
    isSidechain: sidechain,
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
const user = (content: unknown, sidechain = false) =>
  line({ type: "user", isSidechain: sidechain, message: { role: "user", content } });
const ESC = user([{ type: "text", text: "[Request interrupted by user]" }]);

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cl-hold-now-"));
  path = join(dir, "session.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The transcript up to the hold's Stop; returns the offset that Stop read to. */
function heldAt(...before: string[]): number {
  writeFileSync(path, [user("Build it."), reply("Build started."), ...before].join(""));
  return statSync(path).size;
}

describe("namesFinishedTask", () => {
  it("is true for a notification naming one of the tasks, and only then", () => {
    expect(namesFinishedTask(NOTIFIED("b1"), ["b0", "b1"])).toBe(true);
    expect(namesFinishedTask(NOTIFIED("b2"), ["b1"])).toBe(false);
    expect(namesFinishedTask("<task-id>b1</task-id>", ["b1"])).toBe(false);
    expect(namesFinishedTask("<task-notification>no id</task-notification>", [""])).toBe(false);
  });
});

describe("readHoldNow", () => {
  it("is open until a held task's notification is written after the hold's Stop", () => {
    const offset = heldAt();
    expect(readHoldNow(path, offset, ["b1"])).toBe("open");
    appendFileSync(path, user(NOTIFIED("b9")) + user("A person's prompt."));
    expect(readHoldNow(path, offset, ["b1"])).toBe("open");
    appendFileSync(path, user(NOTIFIED("b1")));
    expect(readHoldNow(path, offset, ["b1"])).toBe("notified");
    // The turn goes on: its replies and tool results come after the notification.
    appendFileSync(path, reply("Checking the build."));
    expect(readHoldNow(path, offset, ["b1"])).toBe("notified");
  });

  it("is interrupted when the newest message after the hold's Stop is Esc's, a subagent's lines aside", () => {
    const offset = heldAt();
    appendFileSync(path, user(NOTIFIED("b1")) + ESC + reply("a subagent's line", true));
    expect(readHoldNow(path, offset, ["b1"])).toBe("interrupted");
    // The person's next prompt follows: the prompt hook pauses the loop on it.
    appendFileSync(path, user("What happened?"));
    expect(readHoldNow(path, offset, ["b1"])).toBe("notified");
  });

  it("reads nothing before the hold's Stop: an older notification or Esc there is no news", () => {
    const offset = heldAt(user(NOTIFIED("b1")), ESC);
    expect(readHoldNow(path, offset, ["b1"])).toBe("open");
  });

  it("is open for a transcript that is missing, a folder, or not named", () => {
    expect(readHoldNow(join(dir, "gone.jsonl"), 0, ["b1"])).toBe("open");
    expect(readHoldNow(dir, 0, ["b1"])).toBe("open");
    expect(readHoldNow("", 0, ["b1"])).toBe("open");
  });
});
