// How the helper's command is shown for a person to paste into a shell (doctor, the report's summary): whatever
// the folder's name, a POSIX shell reads the path back as one word, unchanged.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderCliCommand } from "../../src/app/renderCliCommand.js";

/** The words a POSIX shell makes of what follows `node ` in the command. */
const readWords = (command: string): string[] =>
  JSON.parse(
    execFileSync("sh", ["-c", `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' ${command}`], {
      encoding: "utf8",
    }),
  );

describe("renderCliCommand", () => {
  it("leaves a plain path bare", () => {
    expect(renderCliCommand("/opt/continuation-loop")).toBe("node /opt/continuation-loop/hooks/cli.js");
  });

  it.each([
    "/Users/Jane Doe/plugins/continuation-loop",
    "/home/jane/Jane's Mac/continuation-loop",
    '/tmp/a "quoted" name',
    "/tmp/costs $HOME and $(echo no)",
    "/tmp/back`tick`",
    "/tmp/back\\slash",
    "/tmp/tab\there",
    "/tmp/ünïcode dir",
  ])("quotes %j so that a shell reads it back as one word", (root) => {
    const command = renderCliCommand(root);
    expect(command.startsWith("node ")).toBe(true);
    expect(readWords(command.slice("node ".length))).toEqual([join(root, "hooks", "cli.js")]);
  });
});
