import { describe, expect, it } from "vitest";
import { renderLetGitAnswer } from "../../src/app/trustStateFile.js";

describe("renderLetGitAnswer: what lets git say whether a state file came with the repository", () => {
  it("names the cure the error points to", () => {
    expect(renderLetGitAnswer("/p", "ENOENT")).toBe("git working in /p: install git");
    expect(renderLetGitAnswer("/p", "EMFILE")).toContain("a higher limit of open files");
    expect(renderLetGitAnswer("/p", "EAGAIN")).toContain("a higher limit of processes (ulimit -u)");
    expect(renderLetGitAnswer("/p", "EACCES")).toBe("git able to start in /p");
  });
  it("when git ran and failed, points at what it said, and at safe.directory for a folder it refuses", () => {
    const told = renderLetGitAnswer("/p");
    expect(told).toContain("what git says fixed");
    expect(told).toContain("git config --global --add safe.directory /p");
    expect(told).not.toContain("install git");
  });
});
