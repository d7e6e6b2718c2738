import { writeSync } from "node:fs";
import { sleep } from "./sleep.js";

/** A reader that takes nothing for this long is not coming back. */
const MAX_WAIT_MS = 10_000;

/**
 * Writes all of `text` to stdout (1) or stderr (2) before returning. Not process.stdout/stderr:
 * setting up those streams costs ~5 ms of a hook's start-up (node:net, node:tty, node:stream).
 * A closed or broken pipe loses the text silently: nobody is left to read it.
 */
export function writeOutput(fd: 1 | 2, text: string): void {
  const data = Buffer.from(text, "utf8");
  for (let offset = 0, waited = 0; offset < data.length; ) {
    try {
      offset += writeSync(fd, data, offset, data.length - offset);
      waited = 0;
    } catch (error) {
      // A non-blocking pipe that is full: wait for the reader.
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || waited >= MAX_WAIT_MS) return;
      sleep(1);
      waited += 1;
    }
  }
}
