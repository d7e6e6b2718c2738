// The command table: every row has its usage line, its --help and a parse spec; the slash commands are
// exactly the table's slash rows, file for file; the target loop is chosen in one order for both.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CommandCall, chooseTargetLoop, slashSpec } from "../../src/app/commandTable.js";
import type { Context } from "../../src/app/context.js";
import { SLASH_COMMAND_FILES } from "../../src/app/loopCommands.js";
import { renderArgsUsage } from "../../src/app/parseCliArgs.js";
import { COMMANDS, runCli } from "../../src/app/runCli.js";
import { isSlashCommand } from "../../src/app/slashCommands.js";

const REPO = resolve(import.meta.dirname, "../..");
const COMMANDS_DIR = join(REPO, ".claude", "commands");
const NAMES = Object.keys(COMMANDS);
const SLASH = NAMES.filter((name) => COMMANDS[name]?.slash);

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cl-table-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** The helper in-process, in an empty project: its exit code and what it printed. */
async function cli(argv: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const ctx: Context = {
    env,
    cwd: project,
    home: project,
    now: () => Date.parse("2026-03-01T10:00:00Z"),
    packageRoot: REPO,
    readStdin: () => "{}",
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  };
  return { code: await runCli(argv, ctx), out, err };
}

describe("the command table", () => {
  it("gives every command a line in the usage text", async () => {
    const usage = (await cli(["--help"])).out;
    for (const name of NAMES) expect(usage).toMatch(new RegExp(`^ {2}${name}( |$)`, "m"));
    expect(usage).toContain(SLASH.map((name) => `/loop-${name}`).join(", "));
  });

  it.each(NAMES)("gives `%s --help` its usage and every flag, exit 0, nothing run", async (name) => {
    const run = await cli([name, "--help"]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toMatch(new RegExp(`^Usage: continuation-loop ${name}\\b`));
    for (const flag of Object.keys(COMMANDS[name]?.options ?? {})) expect(run.out).toContain(`--${flag}`);
    expect(readdirSync(project)).toEqual([]);
  });

  it.each(NAMES.filter((name) => COMMANDS[name]?.options?.name))(
    "refuses a --name for `%s` that could leave .claude/, in one line, exit 2",
    async (name) => {
      const run = await cli([name, "--name", "../x"]);
      expect(run).toMatchObject({ code: 2, out: "" });
      expect(run.err).toMatch(new RegExp(`^continuation-loop ${name}: --name: invalid value\\. .*"\\.\\./x"\\.\\n$`));
    },
  );

  it.each(NAMES)("refuses `%s --nope` from its parse spec in one line, exit 2", async (name) => {
    const run = await cli([name, "--nope"]);
    expect(run).toMatchObject({ code: 2, out: "" });
    expect(run.err.trimEnd().split("\n")).toHaveLength(1);
    expect(run.err).toContain("unknown option --nope");
    const row = COMMANDS[name];
    const flags = Object.entries(row?.options ?? {}).map(([f, o]) => `--${f}${o.value ? ` ${o.value}` : ""}`);
    if (!row?.own)
      expect(run.err).toBe(
        `continuation-loop ${name}: unknown option --nope. Expected one of ${[...flags, "--help"].join(", ")}.\n`,
      );
  });

  it("names the option or command meant by a mistyped one, and the command as it was typed", async () => {
    expect((await cli(["status", "--nmae", "x"])).err).toMatch(
      /^continuation-loop status: unknown option --nmae \(did you mean --name\?\)\. Expected one of --name NAME,/,
    );
    expect((await cli(["report", "--htm=x.html"])).err).toContain("unknown option --htm (did you mean --html?).");
    const command = await cli(["stauts"]);
    expect(command.code).toBe(2);
    expect(command.err).toMatch(/^continuation-loop: unknown command "stauts" \(did you mean status\?\)\.\n/);
    expect((await cli(["deploy"])).err).toMatch(/^continuation-loop: unknown command "deploy"\.\n/);
    // start's own parser names `continuation-loop start` in a terminal, not the slash command.
    const start = await cli(["start", "--max-iteration", "3", "Go"]);
    expect(start).toMatchObject({ code: 2, out: "" });
    expect(start.err).toMatch(
      /^continuation-loop start: unknown option --max-iteration \(did you mean --max-iterations\?\)\. /,
    );
    // The option meant and where the rest are, not the whole list of options on one line.
    expect(start.err).toBe(
      "continuation-loop start: unknown option --max-iteration (did you mean --max-iterations?). Expected --max-iterations (continuation-loop start --help lists every option).\n",
    );
    expect((await cli(["start", "--nope", "Go"])).err).toContain("Expected one of --name, --template,");
    expect((await cli(["run", "--max-iterations", "lots", "Go"])).err).toMatch(
      /^continuation-loop run: --max-iterations: invalid value\. /,
    );
  });

  it("takes a long-running async command: its promise is awaited, the words after -- reach it unchanged", async () => {
    let seen: Pick<CommandCall, "words" | "passed" | "options"> | undefined;
    COMMANDS.probe = {
      summary: "a command added for this test",
      words: { usage: "GOAL", max: 1 },
      options: { name: { value: "NAME", help: "a name" } },
      passThrough: true,
      run: async ({ words, passed, options }) => {
        await new Promise((resolve) => setImmediate(resolve));
        seen = { words, passed, options };
        return 3;
      },
    };
    try {
      const run = await cli(["probe", "Fix it", "--name", "x", "--", "-p", "--model", "m", "--", "a b"]);
      expect(run.code).toBe(3);
      expect(seen).toEqual({ words: ["Fix it"], passed: ["-p", "--model", "m", "--", "a b"], options: { name: "x" } });
      expect((await cli(["--help"])).out).toMatch(/^ {2}probe GOAL \[--name NAME\] \[-- ARGS…\]\n +a command added/m);
      expect((await cli(["probe", "--model", "m"])).err).toContain("unknown option --model");
    } finally {
      delete COMMANDS.probe;
    }
  });

  it("has a row for every slash command file, and a file for every slash row", () => {
    const files = readdirSync(COMMANDS_DIR).filter((file) => file.endsWith(".md"));
    expect([...files].sort()).toEqual([...SLASH_COMMAND_FILES].sort());
    expect(SLASH_COMMAND_FILES).toEqual(SLASH.map((name) => `loop-${name}.md`));
    for (const name of NAMES) expect(isSlashCommand(name)).toBe(SLASH.includes(name));
    expect(isSlashCommand("toString")).toBe(false);
  });

  it.each(SLASH.filter((name) => !COMMANDS[name]?.own))(
    "shows /loop-%s's flags in its argument hint as the table has them",
    (name) => {
      const text = readFileSync(join(COMMANDS_DIR, `loop-${name}.md`), "utf8");
      const row = COMMANDS[name];
      expect(row).toBeDefined();
      // Claude Code reads these headers leniently (a ": " inside a description): one line is enough here.
      expect(/^argument-hint: "(.*)"$/m.exec(text)?.[1]).toBe(renderArgsUsage(slashSpec(row!)));
    },
  );
});

describe("chooseTargetLoop: one order for the helper and the slash commands", () => {
  const loop = (name: string, session?: string) => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    const file = name === "default" ? "continuation-loop.local.md" : `continuation-loop.${name}.local.md`;
    const owner = session ? `session_id: ${session}\n` : "";
    writeFileSync(join(project, ".claude", file), `---\nmax_iterations: 3\n${owner}---\nGoal ${name}\n`);
  };
  const choose = (session?: string, name?: string) =>
    chooseTargetLoop({
      command: "/loop-stop",
      options: name ? { name } : {},
      root: project,
      session,
      ctx: { env: {} },
    } as unknown as CommandCall).name;

  it("takes --name, else the session's loop, else the first nobody owns, else the first, else the default", () => {
    expect(choose("s1")).toBe("default");
    loop("b-work", "s2");
    expect(choose("s1")).toBe("b-work");
    expect(choose(undefined)).toBe("b-work");
    loop("c-free");
    expect(choose("s1")).toBe("c-free");
    loop("a-mine", "s1");
    expect(choose("s1")).toBe("a-mine");
    expect(choose("s2")).toBe("b-work");
    loop("default", "s3");
    expect(choose(undefined)).toBe("c-free");
    expect(choose("s9", "b-work")).toBe("b-work");
    expect(choose("s1", "none-yet")).toBe("none-yet");
  });
});
