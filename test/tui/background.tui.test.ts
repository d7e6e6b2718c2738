// Background work in a real terminal on the newest Claude Code (docs/REFERENCE.md "Background work"): a turn
// of the loop that ends with a build running in the background leaves the loop waiting, and the person
// reads what it waits for in the band, in one line, and in /loop-status; the build's end takes it on.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text, toolUse } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

/** The band while the loop waits for the build. */
const WAITING_BAND = /⟳ continuation-loop .*loop 1\/5 .*waiting for 1 background task \(build\)/;
/** The band, whatever it says. */
const BAND = /⟳ continuation-loop .*loop \d+\/5/;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: waiting for background work in the terminal`, () => {
  it("the band, one line and /loop-status say what the loop waits for; the build's end takes the loop on", async () => {
    const s = (scratch = new TuiScratch("background"));
    // The build ends when the test writes `go`, or once the scratch folder is gone (a failed test).
    const go = path.join(s.tmp, "go");
    // The notification's turn is held, so that the band can be read while Claude works on it.
    const held = (s.held = heldScript([
      toolUse("Bash", {
        command: `while [ ! -f '${go}' ] && [ -d '${s.tmp}' ]; do sleep 0.1; done; echo built`,
        run_in_background: true,
        description: "build",
      }),
      text("Build started in the background."),
      HOLD,
      text("Checked the result. <promise>DONE</promise>"),
    ]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      allowedTools: ["Bash"],
      cols: 140,
      rows: 80,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Build the project");
    await tui.waitFor(WAITING_BAND, 60_000);
    // The one line, wrapped as the terminal wraps it.
    expect(tui.screen().replace(/\s+/g, " ")).toMatch(
      /continuation-loop: waiting for 1 background task \(build\); iteration 1\/5 is not counted\. The loop goes on when Claude Code reports it finished, or by itself at \d\d:\d\d:\d\d UTC/,
    );
    expect(server.mainRequests).toHaveLength(2);
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/loop waiting, iteration 1\/5/, 30_000);
    expect(tui.screen().replace(/\s+/g, " ")).toMatch(
      /waiting for 1 background task \(build\) since \d\d:\d\d:\d\d UTC; it goes on when it finishes, or by itself at \d\d:\d\d:\d\d UTC/,
    );
    expect(server.mainRequests).toHaveLength(2);

    fs.writeFileSync(go, "");
    // The build's end started a turn: the loop no longer waits while Claude works, and the band says so.
    await held.arrived(2);
    await tui.waitFor((screen) => BAND.test(screen) && !/⟳ continuation-loop .*waiting for/.test(screen), 15_000);
    held.release(text("The build passed."));
    await tui.waitFor(/continuation-loop: loop completed/, 60_000);
    // The band goes with the loop (read at the end's Stop, after the line that tells it).
    await tui.waitFor((screen) => !BAND.test(screen), 10_000);
    await until(() => s.history().some((r) => r.decision === "end"), "the loop's end");
    expect(s.history().map((r) => r.decision)).toEqual(["waiting_background", "continue", "end"]);
    expect(server.mainRequests).toHaveLength(4);
  });

  it("at 80 columns, with a long task description, the band and /loop-status still say what ends the wait", async () => {
    const s = (scratch = new TuiScratch("background80"));
    const go = path.join(s.tmp, "go");
    const description = "npm run build -- --watch=false for the web app";
    const server = (s.server = await startMessagesServer([
      toolUse("Bash", {
        command: `while [ ! -f '${go}' ] && [ -d '${s.tmp}' ]; do sleep 0.1; done`,
        run_in_background: true,
        description,
      }),
      text("Build started in the background."),
      text("Checked the result. <promise>DONE</promise>"),
    ]));
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      allowedTools: ["Bash"],
      cols: 80,
      rows: 50,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Build the project");
    // The band wraps at 80 columns: it names the whole task.
    await tui.waitFor(
      (screen) => screen.replace(/\s+/g, " ").includes(`waiting for 1 background task (${description})`),
      60_000,
    );
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/loop waiting, iteration 1\/5/, 30_000);
    expect(tui.screen().replace(/\s+/g, " ")).toMatch(
      /waiting for 1 background task \(npm run build[^)]*…\) since \d\d:\d\d:\d\d UTC; it goes on when it finishes, or by itself at \d\d:\d\d:\d\d UTC/,
    );
    fs.writeFileSync(go, "");
    await until(() => s.history().some((r) => r.decision === "end"), "the loop's end");
    // The build's notification started the turn that ended the loop.
    expect(s.history().map((r) => r.decision)).toEqual(["waiting_background", "end"]);
    expect(server.mainRequests).toHaveLength(3);
  });
});
