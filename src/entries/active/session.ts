// The active path of SessionStart, SessionEnd and StopFailure (hooks/active/session.js), required by
// hooks/session.js only when a loop concerns the event.
export { runSessionHook } from "../../app/sessionHook.js";
export { recordClear, takeOverAfterClear } from "../../app/clearHandover.js";
export { recordApiError } from "../../app/recordApiError.js";
export { recordPermissionWait } from "../../app/recordPermissionWait.js";
export { recordContinuedInJob } from "../../app/backgroundHandover.js";
