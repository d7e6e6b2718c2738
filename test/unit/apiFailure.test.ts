// An API error that ended Claude Code's turn, as its transcript records it, and whether `run` may start it again.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decideLastingApiFailure, renderApiFailure, renderApiFailureCheck } from "../../src/core/apiFailure.js";
import { parseTranscriptLine } from "../../src/core/transcript.js";
import { readApiFailure, readSessionSize } from "../../src/io/readApiFailure.js";

/** The API error a transcript line carries, as the one reader of transcript lines gives it. */
const parseApiFailureLine = (line: string) => parseTranscriptLine(line)?.apiError;

/** An assistant line as Claude Code writes one in place of a reply (the fields measured on 2.1.197 and 2.1.332). */
const errorLine = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: { role: "assistant", model: "<synthetic>", content: [{ type: "text", text: "API Error" }] },
    isApiErrorMessage: true,
    ...fields,
  });
const replyLine = (text: string, sidechain = false) =>
  JSON.stringify({
    type: "assistant",
    isSidechain: sidechain,
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
const bookkeeping = JSON.stringify({ type: "last-prompt", lastPrompt: "assistant", sessionId: "s" });

describe("decideLastingApiFailure", () => {
  it("a refused key, a missing permission, billing and a request the API never takes end the run", () => {
    expect(decideLastingApiFailure({ status: 401, type: "authentication_error" })).toBe("credentials");
    expect(decideLastingApiFailure({ status: 403, kind: "authentication_failed" })).toBe("permission");
    expect(decideLastingApiFailure({ status: 400, type: "invalid_request_error", kind: "unknown" })).toBe("request");
    expect(decideLastingApiFailure({ status: 404, type: "not_found_error" })).toBe("request");
    expect(decideLastingApiFailure({ status: 400, type: "billing_error" })).toBe("billing");
    expect(decideLastingApiFailure({ status: 402 })).toBe("billing");
  });

  it("with no status (no answer came), Claude Code's own kind decides", () => {
    expect(decideLastingApiFailure({ kind: "authentication_failed" })).toBe("credentials");
    expect(decideLastingApiFailure({ kind: "billing_error" })).toBe("billing");
    expect(decideLastingApiFailure({ kind: "invalid_request" })).toBe("request");
  });

  it("a rate limit, an overload, a server error or an unknown error may clear: the restarts go on", () => {
    expect(decideLastingApiFailure({ status: 429, type: "rate_limit_error", kind: "rate_limit" })).toBeUndefined();
    expect(decideLastingApiFailure({ status: 529, type: "overloaded_error" })).toBeUndefined();
    expect(decideLastingApiFailure({ status: 500, kind: "authentication_failed" })).toBeUndefined();
    expect(decideLastingApiFailure({ kind: "rate_limit" })).toBeUndefined();
    expect(decideLastingApiFailure({ kind: "unknown" })).toBeUndefined();
    expect(decideLastingApiFailure({})).toBeUndefined();
    expect(decideLastingApiFailure(undefined)).toBeUndefined();
  });
});

describe("parseTranscriptLine: apiError", () => {
  it("reads the status, type and kind Claude Code records in place of the reply", () => {
    expect(
      parseApiFailureLine(
        errorLine({ error: "authentication_failed", apiErrorStatus: 401, apiErrorType: "authentication_error" }),
      ),
    ).toEqual({ kind: "authentication_failed", status: 401, type: "authentication_error" });
    expect(parseApiFailureLine(errorLine({ error: "authentication_failed" }))).toEqual({
      kind: "authentication_failed",
    });
  });

  it("a reply that is no error, a prompt, bookkeeping or a torn line carry none", () => {
    expect(parseApiFailureLine(replyLine("Done."))).toBeUndefined();
    expect(parseApiFailureLine(bookkeeping)).toBeUndefined();
    expect(parseApiFailureLine('{"type":"assistant","isApiErrorMe')).toBeUndefined();
    expect(parseApiFailureLine(JSON.stringify({ type: "user", message: { content: "assistant" } }))).toBeUndefined();
  });

  it("takes no field of the wrong type", () => {
    expect(parseApiFailureLine(errorLine({ error: 7, apiErrorStatus: "401", apiErrorType: null }))).toEqual({});
  });
});

describe("renderApiFailure", () => {
  it("says the status and type, else the status and Claude Code's kind, else the kind", () => {
    expect(renderApiFailure({ status: 401, type: "authentication_error", kind: "authentication_failed" })).toBe(
      "the API answered 401 authentication_error",
    );
    expect(renderApiFailure({ status: 403, kind: "authentication_failed" })).toBe(
      "the API answered 403 (authentication_failed)",
    );
    expect(renderApiFailure({ status: 400, kind: "unknown" })).toBe("the API answered 400");
    expect(renderApiFailure({ kind: "authentication_failed" })).toBe("Claude Code reported authentication_failed");
    expect(renderApiFailureCheck("credentials")).toContain("ANTHROPIC_API_KEY");
  });
});

describe("readApiFailure", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const transcript = () => {
    dir = mkdtempSync(join(tmpdir(), "api-failure-"));
    mkdirSync(join(dir, "projects", "-work-proj"), { recursive: true });
    return join(dir, "projects", "-work-proj", "s-1.jsonl");
  };

  it("the last reply written since the start: its API error, null for a reply, nothing before the start", () => {
    const path = transcript();
    const config = dir as string;
    expect(readSessionSize(config, "s-1")).toBe(0);
    expect(readApiFailure(config, "s-1", 0)).toBeUndefined();
    appendFileSync(path, `${errorLine({ error: "authentication_failed", apiErrorStatus: 401 })}\n${bookkeeping}\n`);
    expect(readApiFailure(config, "s-1", 0)).toEqual({ kind: "authentication_failed", status: 401 });
    const from = readSessionSize(config, "s-1");
    // A later start that wrote no reply: the earlier start's error is not its own.
    appendFileSync(path, `${bookkeeping}\n`);
    expect(readApiFailure(config, "s-1", from)).toBeUndefined();
    appendFileSync(path, `${replyLine("Working on it.")}\n${replyLine("sub", true)}\n${bookkeeping}\n`);
    expect(readApiFailure(config, "s-1", from)).toBeNull();
    expect(readApiFailure(config, "s-2", 0)).toBeUndefined();
  });
});
