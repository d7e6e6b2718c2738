import { LoopError } from "./errors.js";
import { LOOP_NAME } from "./loopFileNames.js";
import { type LoopFile, loopFileAt } from "./loopFiles.js";

/** `--name NAME` → that loop's files; a name that could leave `.claude/` is refused. */
export function namedLoopFile(root: string, name: string, command: string): LoopFile {
  if (name !== "default" && !LOOP_NAME.test(name)) {
    throw new LoopError("USAGE", "invalid loop name", {
      file: command,
      field: "--name",
      expected: "default, or 1 to 40 characters of a-z, 0-9 and - (e.g. --name auth-fix)",
      received: JSON.stringify(name),
    });
  }
  return loopFileAt(root, name);
}
