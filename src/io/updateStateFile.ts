import { closeSync, mkdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { openToRead } from "./readBounded.js";
import { dirname } from "node:path";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/parseState.js";
import { type ParsedFrontmatter, parseFrontmatter } from "../core/frontmatter.js";
import { parseState } from "../core/parseState.js";
import { reachCrashPoint } from "./crashPoint.js";
import { acquireLock, type HeldLock } from "./lock.js";
import { readStateFile } from "./readStateFile.js";
import { sleep } from "./sleep.js";
import { holdsSnapshot } from "./writeInPlace.js";
import { removeStaleTemps, writeFileAtomic } from "./writeFileAtomic.js";

/** The state file as the transaction found it, under the lock. */
export type StateSnapshot =
  | { kind: "missing" }
  /** Unreadable (`text` undefined: too large, not a file, no permission) or not a valid state file. */
  | { kind: "invalid"; text: string | undefined; error: LoopError }
  /** `frontmatter`: the text's parse, for editFrontmatter (one parse per transaction). */
  | { kind: "found"; text: string; state: LoopState; frontmatter: ParsedFrontmatter };

/** What to do with the file: nothing, new text, remove it, or move it aside unchanged. */
type StateChange = { write: string } | { remove: true } | { moveTo: string };

export interface StatePlan<T> {
  change?: StateChange;
  result: T;
  /** Runs after the change is on disk (or at once, with no change), still under the lock: the sidecar and history go here. */
  onCommit?: () => void;
}

export type StateOutcome<T> =
  | { kind: "done"; result: T }
  /** The lock could not be had, the save failed, or the file kept changing: nothing was changed. */
  | { kind: "failed"; message: string }
  /** The file disappeared between the decision and the save (the user stopped the loop). */
  | { kind: "gone" };

const ATTEMPTS = 3;

/**
 * Does the file change within a moment? Then what failed to parse was an editor's save in progress.
 * An empty file (an editor that truncated and has not written yet) is given longer than 50 ms.
 */
function changesSoon(path: string, bytes: Buffer): boolean {
  try {
    const before = statSync(path);
    for (let waited = 0; waited < (bytes.length === 0 ? 1_000 : 50); waited += 25) {
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
    return true; // gone or replaced meanwhile: the next attempt sees what is there
  }
}

/** Is the file still exactly `bytes` (or still missing, for undefined), checked through one descriptor? */
function stillThe(path: string, bytes: Buffer | undefined): { same: boolean; gone: boolean } {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch (error) {
    const gone = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { same: gone && bytes === undefined, gone: gone && bytes !== undefined };
  }
  try {
    const held = bytes === undefined ? "changed" : holdsSnapshot(fd, path, bytes);
    return { same: held === "same", gone: held === "gone" };
  } catch {
    return { same: false, gone: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * Applies the change, asking at the last moment whether the file is still `bytes` (what was decided
 * on): "changed" means read it again.
 */
function commit(path: string, change: StateChange, bytes: Buffer | undefined): "saved" | "changed" | "gone" {
  let gone = false;
  const current = () => {
    const check = stillThe(path, bytes);
    gone = check.gone;
    return check.same;
  };
  if ("write" in change) {
    const after = Buffer.from(change.write, "utf8");
    if (writeFileAtomic(path, after, { stillCurrent: current, sweepTemps: false })) return "saved";
  } else if (current()) {
    if ("remove" in change) unlinkSync(path);
    else renameSync(path, change.moveTo);
    return "saved";
  }
  return gone ? "gone" : "changed";
}

/** The state file's lock; its folder is made only when it is missing (a first /loop-start). */
function takeLock(path: string, waitMs: number | undefined): HeldLock | undefined {
  try {
    return acquireLock(path, { waitMs });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true });
    return acquireLock(path, { waitMs });
  }
}

/**
 * The one way the state file is changed (docs/ARCHITECTURE.md): take the lock, read, parse, decide,
 * and commit only if the file is still what was decided on, checked just before the rename. A user
 * edit landing meanwhile is re-read and decided again (`decide` may run up to three times), never
 * lost. A file that fails to parse while an editor is mid-save is waited for. The file is never
 * touched unless `decide` asks for a change.
 */
export function updateStateFile<T>(
  path: string,
  shown: string,
  decide: (snapshot: StateSnapshot) => StatePlan<T>,
  /** How long to wait for a lock another hook holds (default 5 s); a status line cannot wait. */
  lockWaitMs?: number,
): StateOutcome<T> {
  let lock: HeldLock | undefined;
  try {
    lock = takeLock(path, lockWaitMs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return { kind: "failed", message: `cannot create ${shown}.lock (${code}): check the folder's permissions` };
  }
  if (!lock) return { kind: "failed", message: `${shown} is locked by another hook` };
  reachCrashPoint("lock-taken");
  try {
    // Writers save only under the lock, so a killed one's temp files come with its lock, taken over
    // here: only then is the folder swept.
    if (lock.tookOverStale) removeStaleTemps(path);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let snapshot: StateSnapshot;
      let bytes: Buffer | undefined;
      try {
        const read = readStateFile(path, shown);
        bytes = read.kind === "found" ? read.bytes : undefined;
        if (read.kind === "missing") snapshot = read;
        else {
          const frontmatter = parseFrontmatter(read.text, shown);
          snapshot = { kind: "found", text: read.text, state: parseState(read.text, shown, frontmatter), frontmatter };
        }
      } catch (error) {
        if (!(error instanceof LoopError)) throw error;
        // Mid-save (an editor truncates, then writes): not a verdict on the file; look again.
        if (bytes && changesSoon(path, bytes)) {
          if (attempt < ATTEMPTS - 1) continue;
          break;
        }
        snapshot = { kind: "invalid", text: bytes?.toString("utf8"), error };
      }
      const plan = decide(snapshot);
      if (!plan.change) {
        plan.onCommit?.();
        return { kind: "done", result: plan.result };
      }
      let saved: ReturnType<typeof commit>;
      try {
        saved = commit(path, plan.change, bytes);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        return { kind: "failed", message: `${shown} could not be saved (${code}): check the folder's permissions` };
      }
      if (saved === "gone") return { kind: "gone" };
      if (saved === "changed") continue;
      plan.onCommit?.();
      return { kind: "done", result: plan.result };
    }
    return { kind: "failed", message: `${shown} kept changing while the hook saved it` };
  } finally {
    lock.release();
  }
}
