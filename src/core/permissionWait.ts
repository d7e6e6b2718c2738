// A permission prompt Claude Code waits on while a loop runs (docs/REFERENCE.md "Leave it running"). Pure.

/**
 * The tool a permission prompt is for: the one the transcript's last reply calls, else the one the Notification's
 * message names (2.1.332: "… permission to use Bash"; 2.1.197 names none), else "a tool".
 */
export function parsePermissionTool(message: string | undefined, pending?: string): string {
  return pending || /permission to use ([^\s]+)/.exec(message ?? "")?.[1]?.replace(/[.,:;]+$/, "") || "a tool";
}

/** What status and the band say while Claude Code waits for a permission answer. */
export const renderPermissionWait = (wait: { tool: string }): string => `waiting for your permission (${wait.tool})`;
