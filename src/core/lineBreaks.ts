/**
 * `text` with every CRLF or lone CR as LF and no BOM: a goal, notes or template written on Windows reaches
 * Claude, the screen and a new state file with no stray `\r`. Pure.
 */
export const unifyLineBreaks = (text: string): string => text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");

/** The goal (a state file's body) as Claude and the screen are shown it: LF line breaks, trimmed. */
export const renderGoal = (body: string): string => unifyLineBreaks(body).trim();
