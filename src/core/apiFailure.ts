// An API error that ended Claude Code's turn, as Claude Code itself records it (docs/HEADLESS.md "An API error
// that no restart mends"), and whether starting Claude Code again could mend it. Decided from Claude Code's
// structured fields only (an HTTP status, the API's error type, its own error kind), never from its wording.

/** An API error as Claude Code records it; each part is there when Claude Code gave it. */
export interface ApiFailure {
  /** Claude Code's own kind of error, as StopFailure names it: `authentication_failed`, `rate_limit`, `unknown`… */
  kind?: string;
  /** The API's HTTP status (none when no request was answered, e.g. no credentials at all). */
  status?: number;
  /** The API's error type: `authentication_error`, `permission_error`, `invalid_request_error`… */
  type?: string;
}

/** What a person checks for an API error that no restart mends. */
export type LastingApiFailure = "credentials" | "permission" | "billing" | "request";

/** By HTTP status: a credential refused, a permission missing, billing, a request the API will never take. */
const BY_STATUS: Record<number, LastingApiFailure> = {
  400: "request",
  401: "credentials",
  402: "billing",
  403: "permission",
  404: "request",
};
/** Claude Code's kinds for the same errors, when it gives no status (no request was answered). */
const BY_KIND: Record<string, LastingApiFailure> = {
  authentication_failed: "credentials",
  billing_error: "billing",
  invalid_request: "request",
};

/**
 * The error ends `run` at once when starting Claude Code again would only meet it again: the status decides when
 * there is one (a rate limit, an overload or a server error clears by itself, whatever the kind says); else
 * Claude Code's kind. Undefined: a restart may mend it (or it is no error of this sort).
 */
export function decideLastingApiFailure(failure: ApiFailure | undefined): LastingApiFailure | undefined {
  if (!failure) return undefined;
  if (failure.status !== undefined) {
    if (failure.type === "billing_error" && failure.status < 500) return "billing";
    return BY_STATUS[failure.status];
  }
  return failure.kind === undefined ? undefined : BY_KIND[failure.kind];
}

/**
 * "the API answered 401 authentication_error"; with no type (2.1.197 records none), Claude Code's kind beside the
 * status; with no status, the kind alone.
 */
export function renderApiFailure(failure: ApiFailure): string {
  const { status, type, kind } = failure;
  if (status === undefined) return `Claude Code reported ${kind ?? "an API error"}`;
  const named = type ? ` ${type}` : kind && kind !== "unknown" ? ` (${kind})` : "";
  return `the API answered ${status}${named}`;
}

const CHECKS: Record<LastingApiFailure, string> = {
  credentials:
    "Check the credentials Claude Code uses: ANTHROPIC_API_KEY (in CI: that the secret is set and passed to the step), ANTHROPIC_AUTH_TOKEN, or `claude auth status`",
  permission: "Check that the API key's organization and workspace may use the model and features the run asks for",
  billing: "Check the account's credit balance and billing",
  request:
    "Check what Claude Code is asked to send: --model and the other CLAUDE_ARGS, ANTHROPIC_MODEL, ANTHROPIC_BASE_URL, and the workspace's spend limit",
};

/** What to check, in a few words, for an error no restart mends. */
export const renderApiFailureCheck = (lasting: LastingApiFailure): string => CHECKS[lasting];
