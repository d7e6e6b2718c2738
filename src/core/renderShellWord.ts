/**
 * `text` as one word of a command a person pastes into a POSIX shell: bare when it is plain, else in double
 * quotes with the four characters a shell still reads there (`$`, backtick, `"`, `\`) escaped. Pure.
 */
export const renderShellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `"${text.replace(/[$`"\\]/g, "\\$&")}"`;
