// What every soak test asserts (docs/HEADLESS.md): every iteration of a long loop ran exactly once and in
// order, seen both in the loop's history and in the scripted API's requests, and the loop ended by its
// own rule. Each reply the server sends is numbered (`working k`), so a lost or doubled turn shows.
import { expect } from "vitest";
import { type RecordedRequest, text } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";

/** The scripted replies: `working 1`, `working 2`, … in the order the requests arrive. */
export function numberedReplies(): () => ReturnType<typeof text> {
  let sent = 0;
  return () => text(`working ${++sent}`);
}

/** The text of the model's last reply a request carries, or "" on the first request. */
function lastReply(req: RecordedRequest): string {
  const messages = req.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const content = m.content;
    if (typeof content === "string") return content;
    return content.map((block) => (typeof block.text === "string" ? block.text : "")).join("");
  }
  return "";
}

/**
 * `max` iterations, each once and in order: the history's records 1…max (continue, then one end by
 * max_iterations), `max` main requests, request k+1 asking for iteration k+1 of `max` and, unless the
 * context was cleared before it (`fresh`), carrying reply k as the model's last.
 */
export function expectEveryIterationOnce(
  history: Record<string, unknown>[],
  main: RecordedRequest[],
  max: number,
  fresh = false,
): void {
  const decisions = history.filter((h) => h.decision === "continue" || h.decision === "end");
  expect(decisions.map((h) => h.iteration)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  expect(decisions.slice(0, -1).every((h) => h.decision === "continue")).toBe(true);
  expect(decisions.at(-1)).toMatchObject({ decision: "end", reason: "max_iterations", iteration: max });
  expect(main).toHaveLength(max);
  for (let k = 1; k < max; k += 1) {
    const asked = lastUserText(main[k] as RecordedRequest);
    expect(asked, `request ${k + 1}`).toContain(`${k + 1}/${max}`);
    if (fresh) expect(lastReply(main[k] as RecordedRequest), `request ${k + 1}`).toBe("");
    else expect(lastReply(main[k] as RecordedRequest), `request ${k + 1}`).toBe(`working ${k}`);
  }
}
