// The companion module's pure parts: which block is the plugin's continuation, and the band's line.
import { describe, expect, it } from "vitest";
import { isLoopContinuation, LOOP_MARKER } from "../../src/core/protocol.js";
import { readSidecarView } from "../../src/core/sidecar.js";
import { renderBand, renderInvalidBand } from "../../src/module/band.js";
import {
  makeStopId,
  noteSent,
  readContinuation,
  stopLine,
  takeContinuation,
  takeSent,
} from "../../src/module/continuation.js";
import { renderSidecarFor } from "../support/loopSidecar.js";

/** The loop as the module shows it from the sidecar the hooks save for these texts. */
function readLoopView(name: string, state: string, sidecar: string | undefined, checklist?: string) {
  const read = readSidecarView(renderSidecarFor(state, sidecar, checklist));
  return read && { ...read.view, name };
}

const PROMPT = `${LOOP_MARKER} iteration 2/5 (3 left): keep working on it.\n`;

describe("readContinuation, takeContinuation", () => {
  const id = "m1-abc-123";
  const ours = `${PROMPT}${stopLine(id)}\n`;
  it("takes the Stop hook's own text, byte for byte, from its context entry", () => {
    expect(readContinuation(ours, id)).toBe(PROMPT);
    expect(takeContinuation({ additionalContext: [ours] }, id)).toEqual({ text: PROMPT, rest: {} });
  });

  it("reads no other entry as ours", () => {
    expect(readContinuation(undefined, id)).toBeUndefined();
    expect(readContinuation("keep going", id)).toBeUndefined();
    // an older Stop's id, or none
    expect(readContinuation(`${PROMPT}${stopLine("old-id-0000")}\n`, id)).toBeUndefined();
    expect(readContinuation(PROMPT, id)).toBeUndefined();
    // another hook printing our id line without our marker first
    expect(readContinuation(`mimic ${PROMPT}${stopLine(id)}\n`, id)).toBeUndefined();
    expect(takeContinuation({ block: "[./a.sh]: no" }, id)).toEqual({ rest: { block: "[./a.sh]: no" } });
    expect(takeContinuation({}, id)).toEqual({ rest: {} });
  });

  it("leaves every part standing, ours without its id line, when anything else continues the turn", () => {
    const block = "[./lint.sh]: run the linter";
    expect(takeContinuation({ block, additionalContext: [ours] }, id)).toEqual({
      rest: { block, additionalContext: [PROMPT] },
    });
    expect(takeContinuation({ additionalContext: ["note", ours] }, id)).toEqual({
      rest: { additionalContext: ["note", PROMPT] },
    });
    expect(takeContinuation({ preventContinuation: true, additionalContext: [ours] }, id)).toEqual({
      rest: { preventContinuation: true, additionalContext: [PROMPT] },
    });
  });

  it("makes a new id at every call", () => {
    const ids = new Set(Array.from({ length: 50 }, () => makeStopId(1_700_000_000_000)));
    expect(ids.size).toBe(50);
    for (const one of ids) expect(one).toMatch(/^[A-Za-z0-9-]{8,64}$/);
  });
});

describe("noteSent, takeSent: the UserPromptSubmit of the module's own continuation", () => {
  it("knows the exact text it sent, once, and no other prompt", () => {
    noteSent(PROMPT);
    expect(takeSent("please continue")).toBe(false);
    expect(takeSent(`${PROMPT} `)).toBe(false);
    expect(takeSent(undefined)).toBe(false);
    expect(takeSent(PROMPT)).toBe(true);
    // Taken once: the same text typed again by a person goes to the hooks beneath.
    expect(takeSent(PROMPT)).toBe(false);
  });

  it("keeps a short list: a continuation never answered does not stay forever", () => {
    const texts = Array.from({ length: 6 }, (_, i) => `${PROMPT}${i}`);
    for (const one of texts) noteSent(one);
    expect(takeSent(texts[0])).toBe(false);
    expect(takeSent(texts[5])).toBe(true);
    expect(takeSent(texts[2])).toBe(true);
  });
});

describe("isLoopContinuation", () => {
  it("knows the loop's own prompt from a person's", () => {
    expect(isLoopContinuation(PROMPT)).toBe(true);
    expect(isLoopContinuation("please continue")).toBe(false);
    expect(isLoopContinuation(` ${PROMPT}`)).toBe(false);
    expect(isLoopContinuation(undefined)).toBe(false);
  });
});

describe("the band", () => {
  const state = (extra = "") =>
    `---\nactive: true\niteration_count: 3\nmax_iterations: 10\nmax_cost: 2\nsession_id: s1\nstarted_at: "2026-01-01T00:00:00Z"\n${extra}---\n\nGoal.\n`;
  const sidecar = JSON.stringify({
    loop: { started_at: "2026-01-01T00:00:00Z", session_id: "s1" },
    output_tokens: 4200,
    spend: { figure: 0.5, baseline: 0, source: "module" },
  });
  const now = Date.parse("2026-01-01T00:02:05Z");

  it("shows n/max, elapsed, tokens and spend against max_cost", () => {
    const view = readLoopView("default", state(), sidecar);
    expect(view).toBeDefined();
    const line = renderBand(view!, now, "s1");
    expect(line).toContain("3/10");
    expect(line).toContain("2m");
    expect(line).toContain("$0.50/$2.00");
    expect(line).toContain("4,200");
  });

  it("shows a named loop's name, the checklist and why it is paused", () => {
    const view = readLoopView(
      "fix-auth",
      state("checklist: TODO.md\n").replace("active: true", "active: false"),
      sidecar,
      "1/2",
    );
    const line = renderBand(view!, now, "s1");
    expect(line).toContain("fix-auth");
    expect(line).toContain("checklist 1/2");
    expect(line).toContain("/loop-resume");
  });

  it("draws a question holding escape sequences as its text: the band never clears or retitles the screen", () => {
    const asked = JSON.stringify({
      ...JSON.parse(sidecar),
      pause: { reason: "question", text: "Keep\x1b[2J\x1b[H v1\x1b]0;PWNED\x07?", since: "2026-01-01T00:02:00Z" },
    });
    const line = renderBand(readLoopView("api\x1b]52;c;eA==\x07", state(), asked)!, now, "s1");
    expect(line).toContain("continuation-loop api · ");
    expect(line).toContain("Claude asks: Keep v1? — your next prompt answers it");
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it("gives Claude's question its start only: the band stays about one row, the question is in the transcript", () => {
    const question =
      "Should I keep the old v1 endpoints for the mobile clients that still call them, or remove them now? ".repeat(4);
    const asked = JSON.stringify({
      ...JSON.parse(sidecar),
      pause: { reason: "question", text: question.trim(), since: "2026-01-01T00:02:00Z" },
    });
    const line = renderBand(readLoopView("api-cleanup", state(), asked)!, now, "s1");
    expect(line).toMatch(/Claude asks: Should I keep the old v1 endpoints .*… — your next prompt answers it$/);
    // However long the question, it takes no more of the band than a short one and 40 characters.
    const short = asked.replace(JSON.stringify(question.trim()), JSON.stringify("Keep v1?"));
    const shortLine = renderBand(readLoopView("api-cleanup", state(), short)!, now, "s1");
    expect(shortLine).toContain("Claude asks: Keep v1? — your next prompt answers it");
    expect(line.length - shortLine.length).toBeLessThanOrEqual(40);
  });

  it("cuts Claude's question between whole characters: no half emoji at the cut", () => {
    // The 39th and 40th UTF-16 units are one emoji: a cut by units would leave half of it.
    const question = `${"x".repeat(38)}🚀 and 👨‍👩‍👧 ship it?`;
    const asked = JSON.stringify({
      ...JSON.parse(sidecar),
      pause: { reason: "question", text: question, since: "2026-01-01T00:02:00Z" },
    });
    const line = renderBand(readLoopView("api-cleanup", state(), asked)!, now, "s1");
    expect(line).toContain(`Claude asks: ${"x".repeat(38)}… — your next prompt answers it`);
    expect(line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it("says why it paused after API errors in a row, and what it waits for otherwise", () => {
    const paused = JSON.stringify({
      ...JSON.parse(sidecar),
      api_errors_since_stop: 5,
      pause: { reason: "api_errors", text: "5 API errors in a row", since: "2026-01-01T00:02:00Z" },
    });
    const view = readLoopView("default", state().replace("active: true", "active: false"), paused);
    const band = renderBand(view!, now, "s1", "waits for …");
    expect(band).toMatch(/^⟳ continuation-loop · loop paused .* · after 5 API errors in a row — \/loop-resume/);
    // Said once, by the head; so for a loop paused by hand.
    expect(band.match(/paused/g)).toHaveLength(1);
    const byHand = readLoopView("default", state().replace("active: true", "active: false"), sidecar);
    expect(renderBand(byHand!, now, "s1")).toMatch(
      / · loop paused [^·]*·.* · \/loop-resume \(or active: true\) resumes it$/,
    );
    expect(renderBand(byHand!, now, "s1").match(/paused/g)).toHaveLength(1);
    const running = readLoopView("default", state(), sidecar);
    expect(renderBand(running!, now, "s1", "waits for the rate or usage limit until 00:03:00 UTC (55s)")).toMatch(
      / · waits for the rate or usage limit until 00:03:00 UTC \(55s\)$/,
    );
  });

  it("says a loop's state file is invalid, that the loop waits for the fix, and where to read why", () => {
    expect(renderInvalidBand("default")).toMatch(/^⟳ continuation-loop · state file invalid, paused: \/loop-status/);
    expect(renderInvalidBand("fix-auth")).toMatch(/^⟳ continuation-loop fix-auth · state file invalid/);
  });

  it("says what background work the loop waits for", () => {
    const task = (id: string, description: string) => ({
      id,
      type: "shell",
      description,
      since: "2026-01-01T00:02:00Z",
    });
    const held = (tasks: unknown[]) =>
      JSON.stringify({
        ...JSON.parse(sidecar),
        background_hold: { since: "2026-01-01T00:02:00Z", tasks, route: "module" },
      });
    const one = readLoopView("default", state(), held([task("b1", "build")]));
    expect(renderBand(one!, now, "s1")).toMatch(/ · waiting for 1 background task \(build\)$/);
    // A turn runs (the task's notification, a person's prompt): its Stop decides again, nothing is waited for.
    expect(renderBand(one!, now, "s1", undefined, true)).not.toContain("waiting");
    // Esc ended that turn (no Stop came): the loop waits for the person, not for the task; another hold still shows.
    expect(renderBand(one!, now, "s1", undefined, false, "2026-01-01T00:02:00Z")).not.toContain("waiting");
    expect(renderBand(one!, now, "s1", undefined, false, "2026-01-01T00:01:00Z")).toContain("waiting for 1");
    const two = readLoopView("default", state(), held([task("b1", "build"), task("b2", "dev server")]));
    expect(renderBand(two!, now, "s1")).toMatch(/ · waiting for 2 background tasks \(build, dev server\)$/);
  });

  it("leaves a permission wait to /loop-status: no band is drawn while the prompt is open, and after it the record is stale", () => {
    const waiting = JSON.stringify({
      ...JSON.parse(sidecar),
      permission_wait: { tool: "Bash", since: "2026-01-01T00:02:00Z" },
    });
    const view = readLoopView("default", state(), waiting);
    expect(renderBand(view!, now, "s1", undefined, true)).not.toContain("permission");
    expect(renderBand(view!, now, "s1")).not.toContain("permission");
    expect(renderBand(view!, now, "s1", "waits for …")).toMatch(/ · waits for …$/);
  });
});
