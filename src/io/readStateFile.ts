import { LoopError } from "../core/errors.js";
import { EDITOR_SAVE_MS } from "../core/loopFileNames.js";
import { existsSync, statSync } from "node:fs";
import { RETURN_WAIT_POINT, SAVE_WAIT_POINT, reachCrashPoint } from "./crashPoint.js";
import { readBounded } from "./readBounded.js";
import { readTombstone } from "./sidecarFile.js";
import { sleep } from "./sleep.js";

/** Larger state files are refused without being read whole. */
const MAX_STATE_BYTES = 1024 * 1024;

export type StateRead = { kind: "missing" } | { kind: "found"; text: string; bytes: Buffer };

/** Only I/O: the file's bytes and text, `missing` for ENOENT; LoopError for anything unreadable. */
export function readStateFile(path: string, shownAs = path): StateRead {
  let read: ReturnType<typeof readBounded>;
  try {
    read = readBounded(path, MAX_STATE_BYTES);
  } catch (error) {
    throw new LoopError(
      "STATE_UNREADABLE",
      `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      { file: shownAs, expected: "a readable file" },
    );
  }
  switch (read.kind) {
    case "missing":
      return read;
    case "unopened":
      throw new LoopError("STATE_UNREADABLE", `the file cannot be opened (${read.code})`, {
        file: shownAs,
        expected: "a readable file",
      });
    case "not a file":
      throw new LoopError("STATE_UNREADABLE", "the path is not a regular file", {
        file: shownAs,
        expected: "a Markdown file",
      });
    case "too large":
      throw new LoopError("STATE_TOO_LARGE", "the file is too large", {
        file: shownAs,
        expected: `at most ${MAX_STATE_BYTES / 1024} KiB`,
        received: `${read.size} bytes`,
      });
  }
  // Keeps a BOM and turns bytes that are not UTF-8 into U+FFFD (the parser refuses those).
  return { kind: "found", bytes: read.bytes, text: read.bytes.toString("utf8") };
}

/**
 * Is the missing state file back within a second? An editor that saves by moving the old file away first
 * (Emacs' backup, JetBrains' safe write) leaves a moment with no file, which is no deletion.
 */
export function awaitStateFile(path: string): boolean {
  reachCrashPoint(RETURN_WAIT_POINT);
  for (let waited = 0; waited < EDITOR_SAVE_MS; waited += 25) {
    if (existsSync(path)) return true;
    sleep(25);
  }
  return existsSync(path);
}

/**
 * Does the file change within a moment? Then what failed to parse was an editor's save in progress.
 * An empty file (an editor that truncated and has not written yet) is given longer than 50 ms.
 */
export function changesSoon(path: string, bytes: Buffer): boolean {
  reachCrashPoint(SAVE_WAIT_POINT);
  try {
    const before = statSync(path);
    for (let waited = 0; waited < (bytes.length === 0 ? EDITOR_SAVE_MS : 50); waited += 25) {
      sleep(25);
      const after = statSync(path);
      const again = readStateFile(path);
      // The stat too: a save caught twice at its empty moment has the same bytes, not the same ctime.
      if (
        again.kind !== "found" ||
        !again.bytes.equals(bytes) ||
        after.ino !== before.ino ||
        after.ctimeMs !== before.ctimeMs
      )
        return true;
    }
    return false;
  } catch {
    return true; // gone or replaced meanwhile: the next read sees what is there
  }
}

/**
 * The state file, parsed by `parse`, for a reader outside the state-file transaction (status, view, doctor):
 * read again, as a Stop reads it, when it is caught in an editor's save: gone while its loop's sidecar stays
 * (and no tombstone says it was stopped), or not parsing and changing within a moment. Undefined when missing.
 */
export function readStateSettled<T>(
  path: string,
  shown: string,
  sidecarPath: string,
  parse: (text: string) => T,
): T | undefined {
  for (let attempt = 0; ; attempt++) {
    const read = readStateFile(path, shown);
    if (read.kind === "missing") {
      if (attempt > 0 || !existsSync(sidecarPath) || readTombstone(sidecarPath) || !awaitStateFile(path))
        return undefined;
      continue;
    }
    try {
      return parse(read.text);
    } catch (error) {
      if (!(error instanceof LoopError) || attempt >= 2 || !changesSoon(path, read.bytes)) throw error;
    }
  }
}

/** When the file was last written (ms), undefined when it cannot be told: a hand edit's time. */
export function readModifiedTime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
