// What one terminal test in a BackgroundWorld starts, ended after the test whatever became of it: the replies it
// held in the scripted API are let go first, so that nothing waits on them; then the terminal closes, then the world.
import { afterEach } from "vitest";
import { BackgroundWorld } from "../../e2e/support/background.js";
import type { ClaudeVersion } from "../../e2e/support/runClaude.js";
import { startTuiIn, type Tui, type TuiOptions } from "./tui.js";

export interface WorldTest {
  /** A new world for this test (a test that tries again ends the last one first, with `end`). */
  world(version: ClaudeVersion): BackgroundWorld;
  /** Claude Code in a terminal in that world. */
  tui(world: BackgroundWorld, extra?: Partial<TuiOptions>): Promise<Tui>;
  /** `release` runs after the test, before the terminal closes: a held reply's release, safe to call twice. */
  releaseAfter(release: () => void): void;
  /** Ends everything started so far, as after the test. */
  end(): Promise<void>;
}

/** Registers the ending of each test's world, terminal and held replies with vitest (call it at a file's top level). */
export function perWorldTest(): WorldTest {
  let worlds: BackgroundWorld[] = [];
  let tuis: Tui[] = [];
  let releases: (() => void)[] = [];
  const end = async () => {
    for (const release of releases.splice(0)) release();
    for (const tui of tuis.splice(0).reverse()) await tui.close();
    for (const world of worlds.splice(0).reverse()) await world.dispose();
    [worlds, tuis, releases] = [[], [], []];
  };
  afterEach(end);
  return {
    world(version) {
      const world = new BackgroundWorld(version);
      worlds.push(world);
      return world;
    },
    async tui(world, extra) {
      const tui = await startTuiIn(world, extra);
      tuis.push(tui);
      return tui;
    },
    releaseAfter(release) {
      releases.push(release);
    },
    end,
  };
}
