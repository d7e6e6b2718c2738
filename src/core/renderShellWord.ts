/**
 * `text` as one word of a command a person pastes into a POSIX shell: bare when it is plain, else in double
 * quotes with the four characters a shell still reads there (`$`, backtick, `"`, `\`) escaped; with a `!`, in
 * single quotes, since an interactive bash or zsh expands history (`!name`) inside double quotes. Pure.
 */
export const renderShellWord = (text: string): string => {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  if (text.includes("!")) return `'${text.replace(/'/g, "'\\''")}'`;
  return `"${text.replace(/[$`"\\]/g, "\\$&")}"`;
};
