// Transcript entries as Claude Code writes them (test/e2e/support/README.md), for tests that count a loop's tokens.

/** Objects as JSONL, one line each. */
export const jsonl = (...objs: object[]) => objs.map((o) => `${JSON.stringify(o)}\n`).join("");

/** A prompt (or a tool result) of the main thread. */
export const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });

/** A reply of `tokens` output tokens. */
export const assistant = (id: string, text: string, tokens: number) => ({
  type: "assistant",
  message: { id, model: "m", role: "assistant", content: [{ type: "text", text }], usage: { output_tokens: tokens } },
});
