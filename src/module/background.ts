// `/loop-start --bg` in the companion module (docs/REFERENCE.md "Leave it running"): a continuation the Stop hook
// marked with the background line is sent as Claude Code's own `/background PROMPT` sends it, to a background
// session forked from this one, where the loop goes on (the command hooks hand it over at that session's first
// Stop). Every `$` call is spelled `$.noun.verb(…)` (see index.ts).
import { BACKGROUND_LINE, FRESH_LINE } from "../core/protocol.js";
import type { Engine } from "./engine.js";

/** The prompt without its background line (and any fresh-context line), or undefined when it has none. */
export function readBackgroundPrompt(text: string): string | undefined {
  if (!text.endsWith(BACKGROUND_LINE)) return undefined;
  const prompt = text.slice(0, -BACKGROUND_LINE.length);
  // The background session starts from this conversation: a cleared context is not asked of it.
  return prompt.endsWith(FRESH_LINE) ? prompt.slice(0, -FRESH_LINE.length) : prompt;
}

/**
 * Sends the session to the background with the prompt. Should Claude Code refuse, the loop goes on here with
 * the prompt, and one line says why.
 */
export async function sendToBackground($: Engine, prompt: string): Promise<void> {
  try {
    await $.command.run({ command: "background", args: prompt });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    try {
      $.ui.log(`this session could not go to the background (${why}); the loop goes on here.`);
    } catch {
      // the loop still goes on
    }
    await $.prompt.submit({ text: prompt });
  }
}
