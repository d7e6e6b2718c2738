import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The index is read whole only up to this size; a larger one is left to git. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * Whether git's index holds `path`, read from the index file itself, for a machine with a `.git` folder and no
 * git program (a slim container): the answer `git ls-files` gives. Undefined when the index cannot be read for
 * sure (a split or sparse index, an unknown version, a torn file): the caller keeps to "git could not say".
 */
export function readIndexHolds(path: string): boolean | undefined {
  const top = findWorkTree(dirname(path));
  if (!top) return undefined;
  const rel = relative(top.root, path).split(sep).join("/");
  if (!rel || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  const indexPath = join(top.gitDir, "index");
  let bytes: Buffer;
  try {
    if (statSync(indexPath).size > MAX_INDEX_BYTES) return undefined;
    bytes = readFileSync(indexPath);
  } catch (error) {
    // No index yet (git init, nothing added): git tracks nothing.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? false : undefined;
  }
  const paths = parseIndexPaths(bytes);
  return paths?.has(rel);
}

/** The work tree's top and its git folder (a `.git` file names it, as in a linked worktree or a submodule). */
function findWorkTree(start: string): { root: string; gitDir: string } | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) return { root: dir, gitDir: dotGit };
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
      return named ? { root: dir, gitDir: resolve(dir, named) } : undefined;
    } catch {
      if (dirname(dir) === dir) return undefined;
    }
  }
}

/** Every path in an index file (versions 2 to 4, SHA-1 or SHA-256); undefined for what cannot be read for sure. */
export function parseIndexPaths(bytes: Buffer): Set<string> | undefined {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "DIRC") return undefined;
  for (const hashLength of checksumLengths(bytes)) {
    const paths = parseEntries(bytes, hashLength);
    if (paths) return paths;
  }
  return undefined;
}

/** The hash length the file's trailing checksum proves; both when it is all zeros (index.skipHash). */
function checksumLengths(bytes: Buffer): number[] {
  const lengths: number[] = [];
  for (const [algorithm, length] of [
    ["sha1", 20],
    ["sha256", 32],
  ] as const) {
    if (bytes.length < 12 + length) continue;
    const tail = bytes.subarray(bytes.length - length);
    // node:crypto loaded here, not imported: loading it costs every active Stop, and only a machine with no git reads an index.
    const sum = process
      .getBuiltinModule("node:crypto")
      .createHash(algorithm)
      .update(bytes.subarray(0, bytes.length - length))
      .digest();
    if (tail.equals(sum) || tail.every((b) => b === 0)) lengths.push(length);
  }
  return lengths;
}

function parseEntries(bytes: Buffer, hashLength: number): Set<string> | undefined {
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - hashLength;
  const paths = new Set<string>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    const flagsAt = start + 40 + hashLength;
    if (flagsAt + 2 > end) return undefined;
    const flags = bytes.readUInt16BE(flagsAt);
    at = flagsAt + 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let name: Buffer;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      // git's offset varint: each continuation adds one before shifting.
      do {
        if (at >= end) return undefined;
        byte = bytes[at++] as number;
        strip = (strip << 7) | (byte & 0x7f);
        if (byte & 0x80) strip += 1;
      } while (byte & 0x80);
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end || strip > previous.length) return undefined;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(at, nul)]);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return undefined;
      name = bytes.subarray(at, nul);
      // Entries are padded with NULs to a multiple of 8 bytes.
      at = start + Math.ceil((nul + 1 - start) / 8) * 8;
    }
    previous = name;
    paths.add(name.toString("utf8"));
  }
  // The extensions follow: a split index ("link") keeps entries elsewhere, a sparse one ("sdir") folds folders.
  while (at < end) {
    if (at + 8 > end) return undefined;
    const signature = bytes.toString("latin1", at, at + 4);
    if (signature === "link" || signature === "sdir") return undefined;
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  return at === end ? paths : undefined;
}
