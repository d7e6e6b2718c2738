import { describe, expect, it } from "vitest";
import { parseContinuedIn, readBackgroundJob } from "../../src/core/handover.js";

describe("readBackgroundJob", () => {
  it("is the short id at the end of $CLAUDE_JOB_DIR, and nothing outside a background session", () => {
    expect(readBackgroundJob({ CLAUDE_JOB_DIR: "/home/me/.claude/jobs/4dfd6e27" })).toBe("4dfd6e27");
    expect(readBackgroundJob({ CLAUDE_JOB_DIR: "/home/me/.claude/jobs/4dfd6e27/" })).toBe("4dfd6e27");
    expect(readBackgroundJob({})).toBeUndefined();
    expect(readBackgroundJob({ CLAUDE_JOB_DIR: "" })).toBeUndefined();
    expect(readBackgroundJob({ CLAUDE_JOB_DIR: "/tmp/not-a-job" })).toBeUndefined();
  });
});

describe("parseContinuedIn", () => {
  const line = (entry: object) => JSON.stringify(entry);
  it("names the session a transcript's `continued-in` record hands its session to", () => {
    const record = { type: "continued-in", sessionId: "a-1", continuedInSessionId: "b-2", timestamp: "t" };
    expect(parseContinuedIn(line(record), "a-1")).toBe("b-2");
    expect(parseContinuedIn(line(record), "c-3")).toBeUndefined();
  });
  it("ignores any other line, torn or not", () => {
    expect(parseContinuedIn(line({ type: "cost-state", sessionId: "a-1" }), "a-1")).toBeUndefined();
    expect(parseContinuedIn('{"type":"continued-in","sessionId":"a-1"', "a-1")).toBeUndefined();
    expect(parseContinuedIn(line({ type: "continued-in", sessionId: "a-1", continuedInSessionId: 7 }), "a-1")).toBe(
      undefined,
    );
    expect(
      parseContinuedIn(line({ type: "user", message: { content: '"continued-in"' }, sessionId: "a-1" }), "a-1"),
    ).toBe(undefined);
  });
});
