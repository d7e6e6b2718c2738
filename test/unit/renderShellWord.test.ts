// A word of a command shown for a person to paste into a shell (doctor, the report's summary, status --all):
// whatever the folder's name, a POSIX shell reads it back as one word, unchanged.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderCliCommand } from "../../src/app/renderCliCommand.js";
import { renderLoopsEverywhere } from "../../src/core/renderBackground.js";
import { renderShellWord } from "../../src/core/renderShellWord.js";

/** The words a POSIX shell makes of `words`. */
const readWords = (words: string): string[] =>
  execFileSync("sh", ["-c", `printf '%s\\0' ${words}`], { encoding: "utf8" })
    .split("\0")
    .slice(0, -1);

/** The words an interactive bash, history expansion on as a person's terminal has it, makes of `words` pasted in. */
const readWordsPasted = (words: string): string[] =>
  execFileSync("bash", ["--norc", "--noprofile", "-i"], {
    input: `printf '%s\\0' ${words}\n`,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "ignore"],
    env: { PATH: process.env.PATH ?? "", HISTFILE: "/dev/null" },
  })
    .split("\0")
    .slice(0, -1);

describe("renderShellWord", () => {
  it("leaves a plain path bare", () => {
    expect(renderShellWord("/opt/continuation-loop/hooks/cli.js")).toBe("/opt/continuation-loop/hooks/cli.js");
    expect(renderShellWord(".claude/worktrees/fix-auth")).toBe(".claude/worktrees/fix-auth");
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
  ])("quotes %j so that a shell reads it back as one word", (text) => {
    expect(readWords(renderShellWord(text))).toEqual([text]);
  });

  it.each(["/home/jane/Wow!project/continuation-loop", "/home/o'brien/R&D!/x", '/tmp/a "quoted" $HOME `id`; & name'])(
    "quotes %j so that an interactive bash reads it back pasted in, history expansion and all",
    (text) => {
      expect(readWordsPasted(renderShellWord(text))).toEqual([text]);
      expect(readWords(renderShellWord(text))).toEqual([text]);
    },
  );
});

describe("renderCliCommand", () => {
  it("is node and the helper's bundle, one word whatever the folder is named", () => {
    expect(renderCliCommand("/opt/continuation-loop")).toBe("node /opt/continuation-loop/hooks/cli.js");
    const root = "/Users/Jane Doe/$work";
    const command = renderCliCommand(root);
    expect(command.startsWith("node ")).toBe(true);
    expect(readWords(command.slice("node ".length))).toEqual([join(root, "hooks", "cli.js")]);
  });
});

describe("status --all", () => {
  it("names an invalid loop's worktree as one word in the command it suggests", () => {
    const where = "/Users/Jane Doe/work trees/fix-auth";
    const loop = { where, name: "default", state: undefined, runtime: undefined, session: undefined };
    const command = /\(continuation-loop status (.*) says why\)/.exec(renderLoopsEverywhere([loop], true))?.[1];
    expect(command).toBeDefined();
    expect(readWords(command ?? "")).toEqual(["--project", where]);
  });
});
