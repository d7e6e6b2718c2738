// The active path of every hook (hooks/active.js): required by an entry only when a loop concerns
// its event, so an idle hook never parses the state-file reader, the schemas or the transcript code.
// Its own bundle: the entry passes it the Context and plain data, never an instance of a class.
export { runStopHook } from "../app/stopHook.js";
export { runPromptHook } from "../app/promptHook.js";
export { runSessionHook } from "../app/sessionHook.js";
export { recordClear, takeOverAfterClear } from "../app/clearHandover.js";
export { recordApiError } from "../app/recordApiError.js";
