// The prompt hook's active path (hooks/active/prompt.js): a loop command, the resume after an API error,
// a pause or resume of this session's loop. Required by hooks/prompt.js only then.
export { runPromptHook } from "../../app/promptHook.js";
