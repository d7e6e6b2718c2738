// Runs once before every project: the tests' temp folders (fixtures, fake homes, scratch projects)
// go under one folder for the run, removed at its end, so `npm test` leaves nothing behind in the
// system's temp folder. Workers inherit TMPDIR, and os.tmpdir() reads it.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "cl-tests-"));
  // Open like the system's temp folder: the permission cases run hooks as another user from a copy here.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
