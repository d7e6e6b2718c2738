// Limits and completion gates through the real Claude Code CLI.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { text, toolUse, type MessagesServer, type Script } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, type LoopProject } from "./support/loopProject.js";
import { itOnNewest } from "./support/pins.js";
import { CLAUDE_VERSIONS, describeRun, hookSystemMessages, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();
/** The running loop's project and server: its scripts and checks read them before `loop` returns. */
let project: LoopProject | undefined;
let server: MessagesServer | undefined;

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  // A gate's or a limit's decision is the product's own: on the newest pin only. Both pins run what Claude Code
  // delivers to it: a question through the prompt, a new session, the status line's cost, the transcript's usage.
  const itNewest = itOnNewest(version);
  async function loop(
    state: string,
    script: Script,
    opts: {
      allowedTools?: string[];
      setup?: (p: LoopProject) => void;
      sessionId?: string;
      env?: Record<string, string>;
    } = {},
  ) {
    const p = (project = t.project());
    p.writeState(state);
    opts.setup?.(p);
    server = await t.server(script);
    const r = await runClaude({
      version,
      prompt: "go",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId: opts.sessionId ?? randomUUID(),
      allowedTools: opts.allowedTools ?? [],
      ...(opts.env && { env: opts.env }),
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
    const sent = server.mainRequests.map((req) => lastUserText(req));
    return { p, r, sent, end: p.history().at(-1), told: hookSystemMessages(r.transcriptPath, "Stop").join("\n") };
  }

  describe("completion gates", () => {
    itNewest("completion_threshold: promise, miss, promise, promise ends on the 4th turn", async () => {
      const { sent, end } = await loop("---\ncompletion_promise: DONE\ncompletion_threshold: 2\n---\nGoal\n", [
        text("DONE"),
        text("oops, not yet"),
        text("DONE"),
        text("DONE"),
        text("never"),
      ]);
      expect(sent).toHaveLength(4);
      expect(sent[1]).toContain("promise streak 1/2");
      expect(sent[2]).toContain("promise streak 0/2");
      expect(sent[3]).toContain("promise streak 1/2");
      expect(end).toMatchObject({ reason: "completed", iteration: 4 });
    });

    itNewest("promise_format: tag ignores the bare phrase", async () => {
      const { sent, end } = await loop("---\ncompletion_promise: Task complete\npromise_format: tag\n---\nGoal\n", [
        text("Task complete"),
        text("ok <promise> task  COMPLETE </promise>"),
        text("never"),
      ]);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toContain("<promise>Task complete</promise>");
      expect(end).toMatchObject({ reason: "completed", promise: "Task complete" });
    });

    itNewest("a promise list: any one completes", async () => {
      const { sent, end } = await loop("---\ncompletion_promise: [ALPHA DONE, BLOCKED ON USER]\n---\nGoal\n", [
        text("working"),
        text("I am blocked on user input"),
        text("never"),
      ]);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toContain('"ALPHA DONE" or "BLOCKED ON USER"');
      expect(end).toMatchObject({ reason: "completed", promise: "BLOCKED ON USER" });
    });

    itNewest("verify refuses a false promise, then accepts it after a tool call fixes the condition", async () => {
      const { p, sent, end } = await loop(
        '---\ncompletion_promise: DONE\nverify: "test -f fixed.txt"\n---\nCreate fixed.txt\n',
        (_req, index) => {
          if (index === 0) return text("DONE");
          if (index === 1)
            return toolUse("Write", { file_path: path.join(project!.proj, "fixed.txt"), content: "ok\n" });
          if (index === 2) return text("DONE");
          return text("never");
        },
        { allowedTools: ["Write"] },
      );
      expect(sent).toHaveLength(3);
      expect(sent[1]).toContain(LOOP_MARKER);
      expect(sent[1]).toContain(
        "Your last completion was not accepted: the verify command `test -f fixed.txt` exited with status 1",
      );
      expect(fs.readFileSync(path.join(p.proj, "fixed.txt"), "utf8")).toBe("ok\n");
      expect(end).toMatchObject({ reason: "completed", iteration: 2 });
    });

    itNewest(
      "checklist: the promise is refused while PLAN.md has an open box, then accepted after an Edit checks it",
      async () => {
        const plan = () => path.join(project!.proj, "PLAN.md");
        const { p, sent, end } = await loop(
          "---\ncompletion_promise: DONE\nchecklist: PLAN.md\nmax_iterations: 6\n---\nWork through PLAN.md\n",
          (_req, index) => {
            if (index === 0) return text("DONE");
            if (index === 1) return toolUse("Read", { file_path: plan() });
            if (index === 2)
              return toolUse("Edit", {
                file_path: plan(),
                old_string: "- [ ] Fix the parser",
                new_string: "- [x] Fix the parser",
              });
            if (index === 3) return text("DONE");
            return text("never");
          },
          {
            allowedTools: ["Read", "Edit"],
            setup: (lp) =>
              fs.writeFileSync(path.join(lp.proj, "PLAN.md"), "- [x] Write the test\n- [ ] Fix the parser\n"),
          },
        );
        expect(sent).toHaveLength(4);
        expect(sent[1]).toContain("Checklist (PLAN.md): 1/2 done · next: Fix the parser");
        expect(sent[1]).toContain("not accepted: the checklist PLAN.md has 1/2 boxes checked");
        expect(fs.readFileSync(path.join(p.proj, "PLAN.md"), "utf8")).toContain("- [x] Fix the parser");
        expect(end).toMatchObject({ decision: "end", reason: "completed", iteration: 2 });
      },
    );

    it("<loop-pause> pauses with the question shown to the user; the next prompt (--resume) answers it and the loop goes on", async () => {
      const sessionId = randomUUID();
      const p = t.project();
      p.writeState("---\ncompletion_promise: DONE\nmax_iterations: 6\n---\nMigrate the API\n");
      const server = await t.server([
        text("Started the migration."),
        text("Two ways to go. <loop-pause>Keep the old API or break it?</loop-pause>"),
        text("Kept the old API."),
        text("Migrated. DONE"),
        text("never"),
      ]);
      const common = { version, baseUrl: server.url, cwd: p.proj, home: p.home, pluginDirs: [PLUGIN_DIR] };
      const r1 = await runClaude({ ...common, prompt: "go", sessionId });
      expect(r1.code, describeRun(r1)).toBe(0);
      // Paused after two turns: the question reached the user, and nothing continued.
      expect(server.mainRequests).toHaveLength(2);
      expect(hookSystemMessages(r1.transcriptPath, "Stop").join("\n")).toContain(
        "Claude asks: Keep the old API or break it?",
      );
      expect(p.history().at(-1)).toMatchObject({ decision: "pause", question: "Keep the old API or break it?" });
      // The user's answer, in the same session: Claude gets it, then the loop continues to its end.
      const r2 = await runClaude({ ...common, prompt: "Keep it.", resume: sessionId });
      expect(r2.code, describeRun(r2)).toBe(0);
      const sent = server.mainRequests.map((req) => lastUserText(req));
      expect(sent).toHaveLength(4);
      expect(JSON.stringify(server.mainRequests[2]?.body?.messages)).toContain("answers your question");
      expect(sent[3]).toContain(LOOP_MARKER);
      expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "completed" });
      expect(server.exhausted).toBe(false);
    });

    it("/loop-start --again restarts the last finished loop, with its goal, in a new session", async () => {
      const p = t.project();
      p.writeState('---\ncompletion_promise: "SHIPPED"\nmax_iterations: 4\n---\nWrite the release notes\n');
      const server = await t.server([
        text("Drafted them."),
        text("Notes written. SHIPPED"),
        text("Reopened the notes."),
        text("Notes rewritten. SHIPPED"),
        text("never"),
      ]);
      const common = { version, baseUrl: server.url, cwd: p.proj, home: p.home, pluginDirs: [PLUGIN_DIR] };
      const r1 = await runClaude({ ...common, prompt: "go", sessionId: randomUUID() });
      expect(r1.code, describeRun(r1)).toBe(0);
      expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "completed" });
      const r2 = await runClaude({
        ...common,
        prompt: "/continuation-loop:loop-start --again",
        sessionId: randomUUID(),
      });
      expect(r2.code, describeRun(r2)).toBe(0);
      // The restarted loop's first request carries the old goal; it runs to its own end.
      expect(JSON.stringify(server.mainRequests[2]?.body?.messages)).toContain("Write the release notes");
      expect(server.mainRequests).toHaveLength(4);
      expect(lastUserText(server.mainRequests[3]!)).toContain(LOOP_MARKER);
      expect(p.history().filter((r) => r.decision === "end")).toHaveLength(2);
    });

    it("max_cost ends the loop once the status line reports Claude Code's cost crossing it", async () => {
      const sessionId = randomUUID();
      // The status line as Claude Code runs it: its JSON on stdin, with the session's cost so far.
      const statusline = (cost: number) =>
        execFileSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), "statusline"], {
          input: JSON.stringify({
            session_id: sessionId,
            cwd: project!.proj,
            workspace: { project_dir: project!.proj },
            cost: { total_cost_usd: cost },
          }),
          encoding: "utf8",
        });
      const lines: string[] = [];
      const { sent, end, told } = await loop(
        "---\nmax_cost: 1\nmax_iterations: 20\n---\nKeep refactoring\n",
        (_req, index) => {
          lines.push(statusline([0.4, 0.9, 1.3, 1.6][index] ?? 2));
          return index < 6 ? text(`Refactored part ${index + 1}.`) : undefined;
        },
        // The status line's own figures here, not the companion module's (test/e2e/module.e2e.test.ts).
        { sessionId, env: { CONTINUATION_LOOP_MODULE: "0" } },
      );
      // The hand-written loop is claimed at the first Stop, so 0.9 is the baseline; then 0.4, 0.7 and
      // 1.1 spent at the fifth Stop, which ends it.
      expect(lines[1]).toContain("$0.00/$1.00");
      expect(lines[2]).toContain("$0.40/$1.00");
      expect(sent).toHaveLength(5);
      expect(end).toMatchObject({ decision: "end", reason: "max_cost", iteration: 5, cost_usd: 1.1 });
      expect(told).toMatch(/reached max_cost.*\$1\.10 spent/);
    });

    itNewest(
      "checkpoints: three iterations of scripted writes; restore 2 brings iteration 2's files back, HEAD, index and stash unchanged",
      async () => {
        const git = (cwd: string, ...args: string[]) =>
          execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
        // New files each iteration: Claude Code writes over an existing file only after reading it.
        const step = (n: number) => path.join(project!.proj, `step-${n}.txt`);
        let head = "";
        let index = "";
        const { p, end } = await loop(
          "---\ncheckpoints: true\nmax_iterations: 3\n---\nImprove app.txt\n",
          (_req, i) => {
            // Each iteration writes app.txt, then replies.
            if (i % 2 === 0 && i < 6)
              return toolUse("Write", { file_path: step(i / 2 + 1), content: `step ${i / 2 + 1}\n` });
            return i < 6 ? text(`Wrote step ${(i + 1) / 2}.`) : undefined;
          },
          {
            allowedTools: ["Write"],
            setup: (lp) => {
              fs.writeFileSync(path.join(lp.proj, ".gitignore"), ".claude/\n");
              fs.writeFileSync(path.join(lp.proj, "app.txt"), "base\n");
              git(lp.proj, "init", "-q");
              git(lp.proj, "add", ".");
              git(lp.proj, "commit", "-qm", "base");
              head = git(lp.proj, "rev-parse", "HEAD");
              index = git(lp.proj, "ls-files", "-s");
            },
          },
        );
        expect(end).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 3 });
        const cli = (...args: string[]) =>
          execFileSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), ...args], {
            cwd: p.proj,
            encoding: "utf8",
            env: { PATH: process.env.PATH ?? "", HOME: p.home, CLAUDE_PROJECT_DIR: p.proj },
          });
        expect(cli("checkpoints")).toMatch(/^\s+1\s.*\n\s+2\s.*\n\s+3\s/m);
        expect([1, 2, 3].map((n) => fs.existsSync(step(n)))).toEqual([true, true, true]);
        cli("restore", "2");
        expect([1, 2, 3].map((n) => fs.existsSync(step(n)))).toEqual([true, true, false]);
        expect(fs.readFileSync(step(2), "utf8")).toBe("step 2\n");
        expect(git(p.proj, "rev-parse", "HEAD")).toBe(head);
        expect(git(p.proj, "ls-files", "-s")).toBe(index);
        expect(git(p.proj, "stash", "list")).toBe("");
      },
    );

    itNewest(
      "checkpoints in two git worktrees of one repository: each loop lists and restores its own iterations",
      async () => {
        const git = (cwd: string, ...args: string[]) =>
          execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
        // Each iteration writes a new file of its worktree (`prefix-step-N.txt`), then replies.
        const writes = (dir: () => string, prefix: string) => (_req: unknown, i: number) => {
          if (i % 2 === 0 && i < 6)
            return toolUse("Write", {
              file_path: path.join(dir(), `${prefix}-step-${i / 2 + 1}.txt`),
              content: `${prefix} ${i / 2 + 1}\n`,
            });
          return i < 6 ? text(`Wrote step ${(i + 1) / 2}.`) : undefined;
        };
        const state = "---\ncheckpoints: true\nmax_iterations: 3\n---\nImprove the steps\n";
        const { p } = await loop(
          state,
          writes(() => project!.proj, "main"),
          {
            allowedTools: ["Write"],
            setup: (lp) => {
              fs.writeFileSync(path.join(lp.proj, ".gitignore"), ".claude/\n");
              git(lp.proj, "init", "-q");
              git(lp.proj, "add", ".");
              git(lp.proj, "commit", "-qm", "base");
            },
          },
        );
        // Where `claude -w w1` makes its worktree; a loop of its own there, run the same way.
        const linked = path.join(p.proj, ".claude", "worktrees", "w1");
        git(p.proj, "worktree", "add", "-q", "-b", "worktree-w1", linked);
        fs.mkdirSync(path.join(linked, ".claude"), { recursive: true });
        fs.writeFileSync(path.join(linked, ".claude", "continuation-loop.local.md"), state);
        const second = await t.server(writes(() => linked, "wt"));
        const r = await runClaude({
          version,
          prompt: "go",
          baseUrl: second.url,
          cwd: linked,
          home: p.home,
          pluginDirs: [PLUGIN_DIR],
          sessionId: randomUUID(),
          allowedTools: ["Write"],
        });
        expect(r.code, describeRun(r)).toBe(0);
        const cli = (root: string, ...args: string[]) =>
          execFileSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), ...args], {
            cwd: root,
            encoding: "utf8",
            env: { PATH: process.env.PATH ?? "", HOME: p.home, CLAUDE_PROJECT_DIR: root },
          });
        const steps = (root: string, prefix: string) =>
          [1, 2, 3].filter((n) => fs.existsSync(path.join(root, `${prefix}-step-${n}.txt`)));
        for (const root of [p.proj, linked]) expect(cli(root, "checkpoints")).toMatch(/^\s+1\s.*\n\s+2\s.*\n\s+3\s/m);
        expect([steps(p.proj, "main"), steps(linked, "wt")]).toEqual([
          [1, 2, 3],
          [1, 2, 3],
        ]);
        cli(p.proj, "restore", "1");
        cli(linked, "restore", "2");
        expect([steps(p.proj, "main"), steps(linked, "wt")]).toEqual([[1], [1, 2]]);
        expect([steps(p.proj, "wt"), steps(linked, "main")]).toEqual([[], []]);
      },
    );

    itNewest("notes_file: its text goes into every continuation prompt", async () => {
      const { sent } = await loop(
        "---\nmax_iterations: 2\nnotes_file: SHARED_TASK_NOTES.md\n---\nGoal\n",
        [text("one"), text("two")],
        {
          setup: (p) => fs.writeFileSync(path.join(p.proj, "SHARED_TASK_NOTES.md"), "Step 1 done; next: step 2.\n"),
        },
      );
      expect(sent[1]).toContain("Notes (SHARED_TASK_NOTES.md)");
      expect(sent[1]).toContain("Step 1 done; next: step 2.");
    });
  });

  describe("limits", () => {
    itNewest("stall_limit ends a loop of identical replies early", async () => {
      const { sent, end, told } = await loop("---\nmax_iterations: 10\nstall_limit: 2\n---\nGoal\n", [
        text("same"),
        text("same"),
        text("same"),
        text("same"),
        text("same"),
      ]);
      expect(sent).toHaveLength(3);
      expect(end).toMatchObject({ reason: "stalled", iteration: 3 });
      expect(told).toContain("stalled");
    });

    itNewest(
      "stall_limit in a git repository: identical replies with no file change stall; a changed file is progress",
      async () => {
        const git = (p: LoopProject, ...args: string[]) => execFileSync("git", args, { cwd: p.proj, stdio: "pipe" });
        const setup = (p: LoopProject) => {
          git(p, "init", "-q");
          git(p, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
        };
        // The tree is read from the first repeated reply on, so the stall shows one turn after the reply-only case.
        const still = await loop(
          "---\nmax_iterations: 10\nstall_limit: 2\n---\nGoal\n",
          [text("same"), text("same"), text("same"), text("same"), text("same"), text("same")],
          { setup },
        );
        expect(still.sent).toHaveLength(4);
        expect(still.end).toMatchObject({ reason: "stalled", iteration: 4 });

        let n = 0;
        const moving = await loop(
          "---\nmax_iterations: 6\nstall_limit: 2\n---\nGoal\n",
          (_req, index) =>
            index % 2 === 0
              ? toolUse("Write", { file_path: path.join(project!.proj, "progress.txt"), content: `step ${++n}\n` })
              : text("same"),
          { setup, allowedTools: ["Write"] },
        );
        // Rewriting an untracked file each turn is progress, though `git status` reads the same.
        expect(moving.end).toMatchObject({ reason: "max_iterations", iteration: 6 });
      },
    );

    itNewest("max_duration ends an old loop at once", async () => {
      const started = new Date(Date.now() - 2 * 3600_000).toISOString();
      const { sent, end, told } = await loop(`---\nmax_duration: 1h\nstarted_at: ${started}\n---\nGoal\n`, [
        text("one"),
        text("two"),
      ]);
      expect(sent).toHaveLength(1);
      expect(end).toMatchObject({ reason: "max_duration", iteration: 1 });
      expect(told).toContain("reached max_duration");
    });

    it("max_tokens ends the loop whose usage crosses the budget", async () => {
      const usage = { output_tokens: 200 };
      const { sent, end } = await loop("---\nmax_tokens: 500\n---\nGoal\n", [
        text("one", usage),
        text("two", usage),
        text("three", usage),
        text("four", usage),
      ]);
      expect(sent).toHaveLength(3);
      // Usually 200 and 400; a stop whose transcript line lands late counts that turn at the next stop.
      expect(sent[1]).toMatch(/output tokens (0|200) of 500 \((500|300) left\)/);
      // Later stops send the one-line reminder: what is left, not what is used.
      expect(sent[2]).toMatch(/(300|100) output tokens left/);
      expect(end).toMatchObject({
        reason: "max_tokens",
        output_tokens: 600,
      });
      // Counted under the model the CLI asked for (the default model differs between versions).
      const model = String(server!.mainRequests[0]!.body!.model);
      expect(end?.tokens_by_model).toEqual({ [model]: 600 });
    });
  });
});
