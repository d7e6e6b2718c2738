// The UserPromptSubmit side of /loop-start, /loop-stop and /loop-status. Light on purpose: it runs
// before every prompt, and only a loop command loads the parser and schemas.
import { matchLoopCommand } from "../core/loopCommand.js";
import type { Env } from "../io/paths.js";

/** What the prompt hook must say for a loop command. `block` refuses the prompt with a reason for the user. */
export interface LoopPromptOutput {
  block?: string;
  systemMessage?: string;
  additionalContext?: string;
}

export interface LoopPromptContext {
  env: Env;
  cwd: string;
  now: number;
  /** Folder with templates/; defaults to the folder above the running hook script. */
  packageRoot?: string;
}

/** The hook input fields we need, read with JSON.parse only. */
function peek(stdin: string): { prompt: string; session_id?: string; cwd?: string } | undefined {
  try {
    const raw: unknown = JSON.parse(stdin);
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
    const { prompt, session_id, cwd } = raw as Record<string, unknown>;
    if (typeof prompt !== "string") return undefined;
    return { prompt, ...(typeof session_id === "string" && { session_id }), ...(typeof cwd === "string" && { cwd }) };
  } catch {
    return undefined;
  }
}

/**
 * The hook's stdin → what to answer for a loop command, or undefined for any other prompt. The raw
 * prompt comes as a JSON string and never reaches a shell. Never throws.
 */
export async function handleLoopPrompt(stdin: string, ctx: LoopPromptContext): Promise<LoopPromptOutput | undefined> {
  const input = peek(stdin);
  const command = input && matchLoopCommand(input.prompt);
  if (!input || !command) return undefined;
  try {
    const { runLoopCommand } = await import("./runLoopCommand.js");
    return runLoopCommand(command, input, ctx);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { block: `continuation-loop: internal error while running /loop-${command.name} (${detail}).` };
  }
}

/**
 * The prompt hook's stdout for a loop command plus any other context (e.g. the todo reminder):
 * a block answers alone; otherwise the contexts are joined. "" when there is nothing to say.
 */
export function renderPromptOutput(loop: LoopPromptOutput | undefined, otherContext?: string): string {
  if (loop?.block) return `${JSON.stringify({ decision: "block", reason: loop.block })}\n`;
  const context = [otherContext, loop?.additionalContext].filter(Boolean).join("\n\n");
  const out: Record<string, unknown> = {};
  if (loop?.systemMessage) out.systemMessage = loop.systemMessage;
  if (context) out.hookSpecificOutput = { hookEventName: "UserPromptSubmit", additionalContext: context };
  return Object.keys(out).length ? `${JSON.stringify(out)}\n` : "";
}
