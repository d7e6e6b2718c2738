// Which pinned Claude Code runs a case (support/README.md, "Which pin runs a case").
import { it } from "vitest";
import { type ClaudeVersion, NEWEST } from "./runClaude.js";

/**
 * `it` for a case about the product's own decision (a gate, a limit, a metric, the report, a script of ours): the same
 * whichever Claude Code ran the Stop hook, so the case is registered on the newest pin only, where users are. The oldest
 * pin keeps the cases Claude Code's side can change: the hook input, the transcript, commands, sessions, install.
 */
export function itOnNewest(version: ClaudeVersion): typeof it {
  return version === NEWEST ? it : ((() => undefined) as unknown as typeof it);
}
