import { closeSync, mkdirSync, renameSync, unlinkSync } from "node:fs";
import { openToRead } from "./readBounded.js";
import { dirname } from "node:path";
import { LoopError, renderWriteFix } from "../core/errors.js";
import { type ParsedFrontmatter, parseFrontmatter } from "../core/frontmatter.js";
import { type LoopFile, renderKeptSidecarPath, renderShownBeside } from "../core/loopFiles.js";
import { type LoopState, parseState } from "../core/parseState.js";
import { makeRuntime, type Runtime, type SidecarReading, type Tombstone } from "../core/sidecar.js";
import { renderTornSidecar } from "../core/renderTornSidecar.js";
import { reachCrashPoint } from "./crashPoint.js";
import { acquireLock, type HeldLock } from "./lock.js";
import { changesSoon, readStateFile } from "./readStateFile.js";
import { keepTornSidecar, readSidecarReading, removeSidecar, writeSidecar, writeTombstone } from "./sidecarFile.js";
import { holdsSnapshot } from "./writeInPlace.js";
import { removeStaleTemps, writeFileAtomic } from "./writeFileAtomic.js";

/** The state file as the transaction found it, under the lock. */
export type StateSnapshot =
  | { kind: "missing" }
  /** Unreadable (`text` undefined: too large, not a file, no permission) or not a valid state file. */
  | { kind: "invalid"; text: string | undefined; bytes: Buffer | undefined; error: LoopError }
  /**
   * `frontmatter`: the text's parse, for editFrontmatter (one parse per transaction); `runtime`: the sidecar's;
   * `torn`: the sidecar did not read (its counters start again, all or in part), kept aside at the commit.
   */
  | {
      kind: "found";
      text: string;
      state: LoopState;
      frontmatter: ParsedFrontmatter;
      runtime: Runtime;
      torn?: TornSidecar;
    };

type TornSidecar = Extract<SidecarReading, { kind: "torn" }>;

/**
 * What to do with the file: nothing, new text (`state`: its fields, known to the writer, so that nothing
 * parses it again), remove it (with a tombstone for its owner, when another ended it), or move it aside
 * unchanged.
 */
type StateChange = { write: string; state: LoopState } | { remove: true; tombstone?: Tombstone } | { moveTo: string };

export interface StatePlan<T> {
  change?: StateChange;
  /** The loop's bookkeeping after this decision, when it changed (a new file starts from fresh counters). */
  runtime?: Runtime;
  result: T;
  /** Runs after the change and the sidecar are on disk (or at once, with no change), still under the lock: the history goes here. */
  onCommit?: () => void;
}

export type StateOutcome<T> =
  /** `tornSidecar`: the line telling that the sidecar did not read and where it was kept, for the caller to show. */
  | { kind: "done"; result: T; tornSidecar?: string }
  /** The lock could not be had (`locked`), the save failed, or the file kept changing: nothing was changed. The message names the file. */
  | { kind: "failed"; message: string; locked?: true }
  /** The file disappeared between the decision and the save (the user stopped the loop). */
  | { kind: "gone" };

const ATTEMPTS = 3;

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

/** How a transaction may act on the state file. */
export interface UpdateOptions {
  /** How long to wait for a lock another hook holds (default 5 s); a status line cannot wait. */
  lockWaitMs?: number;
  /** Make the file's folder when it is missing: a loop's start only, so that stop or pause never makes one. */
  create?: boolean;
  /**
   * The caller shows the outcome's `tornSidecar` line: a torn sidecar is then kept aside and a fresh one written.
   * Without it, a torn sidecar is left as it is for a transaction that can say so (the next Stop), unless the
   * loop's files go: then it is kept aside all the same, never deleted.
   */
  tellsTorn?: boolean;
}

const NO_FOLDER = "no folder";

/** A state file's text parsed, with its sidecar; throws LoopError when the text is not a valid state file. */
function readFound(file: LoopFile, text: string): StateSnapshot {
  const frontmatter = parseFrontmatter(text, file.shown);
  const state = parseState(text, file.shown, frontmatter);
  const sidecar = readSidecarReading(file.sidecarPath, state);
  const torn = sidecar?.kind === "torn" ? sidecar : undefined;
  const runtime = sidecar && sidecar.kind !== "other" ? sidecar.runtime : makeRuntime();
  return { kind: "found", text, state, frontmatter, runtime, ...(torn && { torn }) };
}

/**
 * The state file and sidecar as they read now, without the lock: for work done before a transaction (a Stop's
 * commands) whose outcome the transaction checks against the files as they then are. Undefined when they do not
 * read, or when `wanted` says from the text alone that the work has nothing to do (no parse then).
 */
export function peekSnapshot(file: LoopFile, wanted: (text: string) => boolean): StateSnapshot | undefined {
  try {
    const read = readStateFile(file.statePath, file.shown);
    if (read.kind === "missing") return read;
    return wanted(read.text) ? readFound(file, read.text) : undefined;
  } catch (error) {
    if (!(error instanceof LoopError)) throw error;
    return undefined;
  }
}

/** The state file's lock; its folder is made only when it is missing and the caller starts a loop. */
function takeLock(path: string, options: UpdateOptions): HeldLock | undefined | typeof NO_FOLDER {
  const waitMs = options.lockWaitMs;
  try {
    return acquireLock(path, { waitMs });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (!options.create) return NO_FOLDER;
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    return acquireLock(path, { waitMs });
  }
}

/**
 * A torn sidecar before the commit touches it: kept aside (renamed) when the caller can say so or the loop's
 * files go, and the line that says so; "left" when it stays as it is, unwritten.
 */
function keepTorn(file: LoopFile, torn: TornSidecar, ending: boolean, tellsTorn: boolean | undefined): string | "left" {
  if ((!tellsTorn && !ending) || !keepTornSidecar(file.sidecarPath)) return "left";
  const kept = renderShownBeside(file, renderKeptSidecarPath(file.sidecarPath));
  return renderTornSidecar(torn, renderShownBeside(file, file.sidecarPath), kept, ending);
}

/**
 * The loop's sidecar after a commit, the one place it is written or removed with its file: saved with the
 * file's new text and fields (the module's view of them included), or with the old ones when only the
 * bookkeeping changed; removed with the file, or left as a tombstone. A torn one is first kept aside (keepTorn):
 * the line telling so is returned.
 */
function commitSidecar(
  file: LoopFile,
  snapshot: StateSnapshot,
  plan: StatePlan<unknown>,
  tellsTorn: boolean | undefined,
): string | undefined {
  const { change, runtime } = plan;
  const found = snapshot.kind === "found" ? snapshot : undefined;
  if (!change && !(runtime && found)) return undefined;
  const told = found?.torn ? keepTorn(file, found.torn, change !== undefined && !("write" in change), tellsTorn) : "";
  if (told === "left") return undefined;
  if (change && "write" in change) {
    writeSidecar(file, change.write, change.state, runtime ?? found?.runtime ?? makeRuntime());
  } else if (change) {
    if ("remove" in change && change.tombstone && found)
      writeTombstone(file.sidecarPath, found.state, change.tombstone);
    else removeSidecar(file.sidecarPath);
  } else if (runtime && found) writeSidecar(file, found.text, found.state, runtime);
  return told || undefined;
}

/**
 * The one way a loop's state file and sidecar are changed (docs/ARCHITECTURE.md): take the lock, read, parse,
 * decide, and commit only if the file is still what was decided on, checked just before the rename; then
 * the sidecar. A user edit landing meanwhile is re-read and decided again (`decide` may run up to three
 * times), never lost. A file that fails to parse while an editor is mid-save is waited for. The file is
 * never touched unless `decide` asks for a change.
 */
export function updateStateFile<T>(
  file: LoopFile,
  decide: (snapshot: StateSnapshot) => StatePlan<T>,
  options: UpdateOptions = {},
): StateOutcome<T> {
  const { statePath: path, shown } = file;
  let lock: ReturnType<typeof takeLock>;
  try {
    lock = takeLock(path, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return { kind: "failed", message: `cannot create ${shown}.lock (${code}): ${renderWriteFix(code)}` };
  }
  if (lock === NO_FOLDER) {
    // No folder, so no loop and nothing to lock: decided as a missing file, and nothing is made.
    const plan = decide({ kind: "missing" });
    if (plan.change)
      return { kind: "failed", message: `cannot create ${shown}.lock (ENOENT): its folder does not exist` };
    plan.onCommit?.();
    return { kind: "done", result: plan.result };
  }
  if (!lock) return { kind: "failed", message: `${shown} is locked by another hook`, locked: true };
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
        snapshot = read.kind === "missing" ? read : readFound(file, read.text);
      } catch (error) {
        if (!(error instanceof LoopError)) throw error;
        // Mid-save (an editor truncates, then writes): not a verdict on the file; look again.
        if (bytes && changesSoon(path, bytes)) {
          if (attempt < ATTEMPTS - 1) continue;
          break;
        }
        snapshot = { kind: "invalid", text: bytes?.toString("utf8"), bytes, error };
      }
      const plan = decide(snapshot);
      if (plan.change) {
        let saved: ReturnType<typeof commit>;
        try {
          saved = commit(path, plan.change, bytes);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? "error";
          return { kind: "failed", message: `${shown} could not be saved (${code}): ${renderWriteFix(code)}` };
        }
        if (saved === "gone") return { kind: "gone" };
        if (saved === "changed") continue;
      }
      const tornSidecar = commitSidecar(file, snapshot, plan, options.tellsTorn);
      plan.onCommit?.();
      return { kind: "done", result: plan.result, ...(tornSidecar && { tornSidecar }) };
    }
    return { kind: "failed", message: `${shown} kept changing while the hook saved it` };
  } finally {
    lock.release();
  }
}
