// The Stop hook's active path (hooks/active/stop.js), required by hooks/stop.js only when a loop
// concerns the Stop: an idle Stop never parses the state-file reader, the schemas or the transcript code.
export { runStopHook } from "../../app/stopHook.js";
