import { closeSync, fstatSync, readSync } from "node:fs";
import { openToRead } from "./openToRead.js";
import { LoopError } from "../core/errors.js";

/** Larger state files are refused without being read whole. */
const MAX_STATE_BYTES = 1024 * 1024;

export type StateRead = { kind: "missing" } | { kind: "found"; text: string; bytes: Buffer };

/** Only I/O: the file's bytes and text, `missing` for ENOENT; LoopError for anything unreadable. */
export function readStateFile(path: string, shownAs = path): StateRead {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    throw new LoopError("STATE_UNREADABLE", `the file cannot be opened (${code ?? "error"})`, {
      file: shownAs,
      expected: "a readable file",
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new LoopError("STATE_UNREADABLE", "the path is not a regular file", {
        file: shownAs,
        expected: "a Markdown file",
      });
    }
    if (stat.size > MAX_STATE_BYTES) {
      throw new LoopError("STATE_TOO_LARGE", "the file is too large", {
        file: shownAs,
        expected: `at most ${MAX_STATE_BYTES / 1024} KiB`,
        received: `${stat.size} bytes`,
      });
    }
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes.subarray(read), { position: read });
      if (n === 0) break;
      read += n;
    }
    const exact = bytes.subarray(0, read);
    return {
      kind: "found",
      bytes: exact,
      // Keeps a BOM and turns bytes that are not UTF-8 into U+FFFD (the parser refuses those).
      text: exact.toString("utf8"),
    };
  } catch (error) {
    if (error instanceof LoopError) throw error;
    throw new LoopError(
      "STATE_UNREADABLE",
      `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      {
        file: shownAs,
        expected: "a readable file",
      },
    );
  } finally {
    closeSync(fd);
  }
}
