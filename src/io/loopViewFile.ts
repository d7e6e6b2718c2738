import { readFileSync, rmSync } from "node:fs";
import type { LoopFile } from "../core/loopFiles.js";
import { type LoopViewFacts, parseLoopView, renderLoopView } from "../core/loopView.js";
import type { LoopState } from "../core/parseState.js";
import type { Runtime, SidecarOwner } from "../core/sidecar.js";
import { writeSidecar } from "./sidecarFile.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { overwriteFile } from "./writeInPlace.js";

/**
 * Saves the band's view of a loop (docs/REFERENCE.md "Files the loop keeps"). Derived, so not synced to
 * disk, and a failure only leaves the companion module to make its own (`continuation-loop view`). Written
 * over the old one as the sidecar is (no rename for the Stop to wait on); a view caught half-written
 * does not parse and is not used; a symlink in its place is replaced, not followed.
 */
function writeLoopView(path: string, facts: LoopViewFacts): void {
  try {
    const bytes = Buffer.from(renderLoopView(facts), "utf8");
    if (!overwriteFile(path, bytes)) writeFileAtomic(path, bytes, { durable: false });
  } catch {
    // the module falls back to the helper
  }
}

export function removeLoopView(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // a view left behind matches no state file's text: it is never used
  }
}

/**
 * Saves the sidecar, then the view of what the writer decided and wrote: the state file's new text and
 * fields, the sidecar's text as saved, and the checklist's `k/n`. No parse; no view when the sidecar could
 * not be saved (the module then makes its own).
 */
export function writeSidecarAndView(
  file: LoopFile,
  stateText: string,
  state: LoopState,
  runtime: Runtime,
  owner: SidecarOwner,
  checklist: string | undefined,
): void {
  const sidecarText = writeSidecar(file.sidecarPath, runtime, owner);
  if (sidecarText === undefined) return;
  writeLoopView(file.viewPath, {
    state_text: stateText,
    sidecar_text: sidecarText,
    name: file.name,
    state,
    runtime,
    ...(checklist && { checklist }),
  });
}

/** The checklist count the loop's view holds, if it reads: what a writer that reads no checklist carries on. */
export function readViewChecklist(path: string): string | undefined {
  try {
    return parseLoopView(readFileSync(path, "utf8"))?.checklist;
  } catch {
    return undefined;
  }
}
