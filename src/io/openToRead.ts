import { constants, openSync } from "node:fs";

/**
 * Opens a file to read, without blocking: a FIFO put in a file's place must not hang a hook (the flag
 * changes nothing for a regular file). Throws as openSync does.
 */
export function openToRead(path: string): number {
  return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
}
