// Each pass of the process suite runs the bundles under the Node line its project names
// (vitest.config.ts): the hooks' own report of the Node running them says which.
import { afterAll, describe, expect, it } from "vitest";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

describe("the Node running the bundles", () => {
  it("is the line this project stands for", () => {
    const expected = process.env.CONTINUATION_LOOP_TEST_NODE_MAJOR ?? process.versions.node.split(".")[0];
    const run = runCli(["doctor"], { cwd: tempProject() });
    expect(run.stdout).toMatch(new RegExp(`\\bnode v${expected}\\.\\d+\\.\\d+\\b`));
  });
});
