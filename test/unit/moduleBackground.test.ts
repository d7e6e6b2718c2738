// `/loop-start --bg` through the companion module (docs/REFERENCE.md "Leave it running"): the Stop hook marks the first
// continuation with the background line; the module sends the session to the background with that prompt instead
// of sending it here, and goes on here should Claude Code refuse.
import { describe, expect, it } from "vitest";
import { renderContinuationAnswer } from "../../src/app/moduleBridge.js";
import { BACKGROUND_LINE, FRESH_LINE, LOOP_MARKER } from "../../src/core/protocol.js";
import { readBackgroundPrompt, sendToBackground } from "../../src/module/background.js";
import { readContinuation } from "../../src/module/continuation.js";
import type { Engine } from "../../src/module/engine.js";

const PROMPT = `${LOOP_MARKER}\nContinuation loop: iteration 2/5.\n\nGoal:\nShip it.\n`;
const ID = "m3k9x-1-abc123";
const ENV = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332", CONTINUATION_LOOP_STOP_ID: ID };

function context(background: boolean, fresh = false): string {
  const answer = renderContinuationAnswer(PROMPT, ENV, fresh, undefined, background);
  return (answer.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describe("the background line", () => {
  it("asks for the background, and the module gets the prompt back byte for byte", () => {
    const text = readContinuation(context(true), ID)!;
    expect(text.endsWith(BACKGROUND_LINE)).toBe(true);
    expect(readBackgroundPrompt(text)).toBe(PROMPT);
    // With fresh_context too: the background session starts from this conversation, uncleared.
    expect(readBackgroundPrompt(readContinuation(context(true, true), ID)!)).toBe(PROMPT);
  });

  it("is absent from an ordinary continuation, and where the module handed no id", () => {
    expect(readBackgroundPrompt(readContinuation(context(false), ID)!)).toBeUndefined();
    expect(readBackgroundPrompt(`${PROMPT}${FRESH_LINE}`)).toBeUndefined();
    const plain = renderContinuationAnswer(
      PROMPT,
      { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332" },
      false,
      undefined,
      true,
    );
    expect(plain).toMatchObject({ exitCode: 2, stderr: PROMPT });
  });
});

describe("sendToBackground", () => {
  function engine(run: () => Promise<unknown>) {
    const calls: string[] = [];
    const $ = {
      command: {
        run: async (args: { command: string; args?: string }) => {
          calls.push(`run ${args.command} ${args.args === PROMPT ? "PROMPT" : JSON.stringify(args.args)}`);
          return run();
        },
      },
      prompt: {
        submit: async ({ text }: { text: string }) => calls.push(`submit ${text === PROMPT ? "PROMPT" : text}`),
      },
      ui: { log: (text: string) => calls.push(`log ${text}`) },
    } as unknown as Engine;
    return { $, calls };
  }

  it("runs Claude Code's /background with the prompt, and sends nothing here", async () => {
    const { $, calls } = engine(async () => ({}));
    await sendToBackground($, PROMPT);
    expect(calls).toEqual(["run background PROMPT"]);
  });

  it("refused, the loop goes on here with the prompt, and one line says why", async () => {
    const { $, calls } = engine(() => Promise.reject(new Error("session persistence is disabled")));
    await sendToBackground($, PROMPT);
    expect(calls).toEqual([
      "run background PROMPT",
      expect.stringMatching(/^log this session could not go to the background \(session persistence is disabled\)/),
      "submit PROMPT",
    ]);
  });
});
