// Runs once before the e2e and tui projects: a missing or wrong Claude Code binary fails the run.
import { checkClaudeVersions } from "./runClaude.js";

export default function setup(): void {
  checkClaudeVersions();
}
