import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE } from "../../support/runHook.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CLI = join(REPO, "hooks", "cli.js");
const FIXTURES = join(REPO, "test", "fixtures", "install");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled hooks/cli.js as a user would, with a clean environment. */
export function runCli(
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; input?: string; script?: string },
): CliRun {
  const result = spawnSync(NODE, [opts.script ?? CLI, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? "",
    env: { PATH: process.env.PATH ?? "", HOME: opts.cwd, ...opts.env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** Removes every folder this module made; for afterAll. */
export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh copy of a fixture project in a temp folder. */
export function copyFixture(name: string): string {
  const dir = join(temp(`cl-${name}-`), name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export function tempProject(): string {
  return temp("cl-cli-");
}

/** Every file (content) and folder ("<dir>") under root, keyed by relative path. */
export function snapshot(root: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      if (skip(rel)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        out[`${rel}/`] = "<dir>";
        walk(path, rel);
      } else out[rel] = readFileSync(path, "utf8");
    }
  };
  walk(root, "");
  return out;
}
