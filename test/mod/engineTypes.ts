// Checked by `tsc -p test/mod` where Claude Code has written its declarations into .claude-plugin/types/
// (test/tui/moduleTypes.tui.test.ts): the engine Claude Code hands the module has every call the module's
// hand-written subset (src/module/engine.ts) names, in a shape it can take.
import type {
  ClassicResultOf,
  CommandRunResult as ClaudeCommandRunResult,
  EngineInterface,
  PromptSubmitInput as ClaudePromptSubmitInput,
  PromptSubmitResult,
} from "claude-code";
import type {
  ClassicStopResult,
  CommandRunResult,
  Engine,
  PromptSubmitDrop,
  PromptSubmitInput,
} from "../../src/module/engine.js";

export const asModuleEngine = (engine: EngineInterface): Engine => engine;
// What the module's hooks return is what Claude Code takes from them.
export const asStopResult = (result: ClassicStopResult): ClassicResultOf["classic.Stop"] => result;
export const asCommandResult = (result: CommandRunResult): ClaudeCommandRunResult => result;
// A prompt.submit hook reads the prompt's origin and may drop it.
export const asPromptSubmitInput = (input: ClaudePromptSubmitInput): PromptSubmitInput => input;
export const asPromptDrop = (result: PromptSubmitDrop): PromptSubmitResult => result;
