/** Codes for every refusal a user can see; docs/REFERENCE.md's messages table lists them. */
export type LoopErrorCode =
  | "STATE_TOO_LARGE"
  | "STATE_NOT_TEXT"
  | "STATE_NO_FRONTMATTER"
  | "STATE_UNCLOSED_FRONTMATTER"
  | "STATE_BAD_YAML"
  | "STATE_NOT_MAPPING"
  | "STATE_BAD_FIELD"
  | "STATE_NO_GOAL"
  | "STATE_UNREADABLE"
  | "STATE_UNWRITABLE"
  | "STATE_TRACKED_BY_GIT"
  | "STATE_TRACKING_UNKNOWN"
  | "INPUT_BAD_JSON"
  | "INPUT_BAD_FIELD"
  | "NOTES_OUTSIDE_PROJECT"
  | "CHECKLIST_OUTSIDE_PROJECT"
  | "CHECKLIST_UNREADABLE"
  | "CHECKLIST_TOO_LARGE"
  | "CHECKLIST_NO_BOXES"
  | "SCOPE_OUTSIDE_PROJECT"
  | "SCOPE_NOT_GIT"
  | "METRIC_MISSING"
  | "USAGE"
  | "HISTORY_MISSING"
  | "HISTORY_UNREADABLE"
  | "LOOP_RUNNING"
  | "LOOP_LOCKED"
  | "LOOP_LIMIT_PASSED"
  | "TEMPLATE_NOT_FOUND"
  | "SETTINGS_MALFORMED"
  | "INSTALL_CONFLICT"
  | "INSTALL_FAILED"
  | "CHECKPOINT_NOT_GIT"
  | "CHECKPOINT_UNKNOWN"
  | "CLAUDE_UNAVAILABLE"
  | "CHECKPOINT_UNSAVED_CHANGES"
  | "CHECKPOINT_FAILED"
  | "CHECKPOINT_FILTER_MISSING"
  | "CHECKPOINT_REF_LOCKED"
  | "GIT_MISSING";

export interface LoopErrorDetails {
  file?: string;
  field?: string;
  line?: number;
  expected?: string;
  received?: string;
}

/** The one error class: a code for programs, a sentence for people. */
export class LoopError extends Error {
  readonly code: LoopErrorCode;
  readonly details: LoopErrorDetails;

  constructor(code: LoopErrorCode, message: string, details: LoopErrorDetails = {}) {
    super(message);
    this.name = "LoopError";
    this.code = code;
    this.details = details;
  }

  /** "file line 4: field: message. Expected … Received …" */
  describe(): string {
    const { file, line, field, expected, received } = this.details;
    const where = [file, line === undefined ? undefined : `line ${line}`].filter(Boolean).join(" ");
    const parts = [where ? `${where}: ` : "", field ? `${field}: ` : "", this.message];
    if (expected) parts.push(`. Expected ${expected}`);
    if (received !== undefined) parts.push(`; received ${received}`);
    return parts.join("");
  }
}

/** Short, single-line rendering of a received value for messages: at most `max` characters. */
export function renderReceived(value: unknown, max = 80): string {
  let text: string;
  try {
    // JSON would render Infinity and NaN as "null".
    text =
      typeof value === "number" && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    // Too deep to render (String() of a nested array recurses as well): say what it is.
    text = Array.isArray(value)
      ? "a deeply nested list"
      : typeof value === "object"
        ? "a deeply nested object"
        : typeof value;
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Why the system would not write a file and what to do, by its error code (ENOSPC, EACCES…), in the person's words. */
export function renderWriteFix(code: string | undefined, otherwise = "check the folder's permissions"): string {
  if (code === "ENOSPC") return "no space left on the disk: free some space";
  if (code === "EDQUOT") return "the disk quota is used up: free some space";
  if (code === "EROFS") return "the file system is read-only";
  return otherwise;
}
