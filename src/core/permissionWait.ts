// A permission prompt Claude Code waits on while a loop runs (docs/REFERENCE.md "Leave it running"). Pure.

/**
 * The tool a permission prompt is for, from the Notification's message ("… permission to use Bash", measured on
 * 2.1.197 and 2.1.332); "a tool" when the message names none.
 */
export function parsePermissionTool(message: string | undefined): string {
  return /permission to use ([^\s]+)/.exec(message ?? "")?.[1]?.replace(/[.,:;]+$/, "") || "a tool";
}

/** What status and the band say while Claude Code waits for a permission answer. */
export const renderPermissionWait = (wait: { tool: string }): string => `waiting for your permission (${wait.tool})`;
