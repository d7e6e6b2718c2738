import { existsSync, readdirSync } from "node:fs";
import { readBounded } from "./readBounded.js";
import { basename, join } from "node:path";
import { parseStateFileName, STATE_DIR } from "../core/loopFileNames.js";
import { type Env, type FoundLoop, type LoopFile, loopFileAt, pinnedLoopFile } from "../core/loopFiles.js";
import { readSidecarOwner } from "./sidecarFile.js";
import { endsFrontmatter, parseOwnerHint } from "../core/ownerHint.js";

/**
 * The owner line sits in the frontmatter, near the top; a claim adds it as the frontmatter's last line, so a
 * frontmatter longer than the head is read to its end (up to FRONTMATTER_MAX), or the owner would go unseen.
 */
const HEAD = 4096;
const FRONTMATTER_MAX = 256 * 1024;

export interface LoopScan {
  loops: FoundLoop[];
  /** Sidecars whose state file is gone, with the session they belonged to. */
  orphans: FoundLoop[];
}

/**
 * The owner a file names, read cheaply; null when there is no such file. A file that cannot be read
 * names no owner: the full read says what is wrong with it. A head with no whole frontmatter (empty, or cut:
 * an editor's save caught between its truncation and its last write) names the owner its sidecar keeps,
 * so that its session neither takes it for unowned nor claims another loop meanwhile.
 */
function ownerOf(path: string, sidecarPath: string): string | undefined | null {
  try {
    let read = readBounded(path, HEAD, { keep: "head" });
    if (read.kind === "found" && read.stat.size > HEAD && !endsFrontmatter(read.bytes.toString("latin1")))
      read = readBounded(path, FRONTMATTER_MAX, { keep: "head" });
    if (read.kind === "missing") return null;
    if (read.kind !== "found") return undefined;
    // A line cut (by the head's end, or an editor mid-write) could show half an owner: only lines
    // that end are read. Session ids are ASCII.
    const head = read.bytes.toString("latin1");
    const owner = parseOwnerHint(head.slice(0, head.lastIndexOf("\n") + 1));
    return owner !== undefined || endsFrontmatter(head) ? owner : readSidecarOwner(sidecarPath);
  } catch {
    return undefined;
  }
}

/**
 * Every loop of a project: `CONTINUATION_LOOP_FILE` alone when set, else the state files in
 * `.claude/` (the default first, then by name), and the sidecars left without a state file.
 */
export function scanLoops(root: string, env: Env): LoopScan {
  const pinned = pinnedLoopFile(root, env);
  const files: LoopFile[] = [];
  const sidecars = new Set<string>();
  if (pinned) files.push(pinned);
  else {
    let names: string[] = [];
    try {
      names = readdirSync(join(root, STATE_DIR));
    } catch {
      // no .claude folder: no loop
    }
    const listed = new Set(names);
    for (const entry of names.sort()) {
      const name = parseStateFileName(entry, listed);
      if (name === "default") files.unshift(loopFileAt(root, name));
      else if (name) files.push(loopFileAt(root, name));
      else if (entry.startsWith("continuation-loop") && entry.endsWith(".runtime.json")) sidecars.add(entry);
    }
  }
  const loops: FoundLoop[] = [];
  const orphans: FoundLoop[] = [];
  for (const file of files) {
    const owner = ownerOf(file.statePath, file.sidecarPath);
    if (owner !== null) loops.push({ file, owner });
    else if (pinned && existsSync(file.sidecarPath)) orphans.push({ file, owner: readSidecarOwner(file.sidecarPath) });
    // basename() walks the path a character at a time: only when there is a sidecar to match.
    if (sidecars.size > 0) sidecars.delete(basename(file.sidecarPath));
  }
  for (const entry of sidecars) {
    const name = parseStateFileName(entry.replace(/\.runtime\.json$/, ".local.md"));
    if (name) orphans.push({ file: loopFileAt(root, name), owner: readSidecarOwner(join(root, STATE_DIR, entry)) });
  }
  return { loops, orphans };
}

/**
 * Files in `.claude/` named like a named loop's state file whose NAME is no loop's name (`continuation-loop.café.local.md`):
 * no loop runs from them, and nothing else says so.
 */
export function listStrayLoopFiles(root: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(root, STATE_DIR));
  } catch {
    return []; // no .claude folder
  }
  const listed = new Set(names);
  return names
    .filter((entry) => /^continuation-loop\..*\.local\.md$/s.test(entry) && !parseStateFileName(entry, listed))
    .sort();
}
