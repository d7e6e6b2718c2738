import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { LoopError, renderWriteFix } from "../core/errors.js";
import {
  COMMANDS_DIR,
  INSTALLED_HOOKS,
  INSTALLED_TEMPLATES,
  MANIFEST,
  parseManifest,
  type Manifest,
} from "../core/installLayout.js";
import type { HookTable } from "../core/settingsHooks.js";
import { writeFileAtomic } from "../io/writeFileAtomic.js";

/**
 * Runs an install or uninstall, turning a file the system refused mid-way (a read-only folder, say) into one
 * line naming it: what was done so far stays, and the same command run again once it is fixed finishes.
 */
export function refuseUnwritable<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (error instanceof LoopError || typeof code !== "string" || typeof path !== "string") throw error;
    const why = renderWriteFix(code, "");
    throw new LoopError("INSTALL_FAILED", `could not be written (${code})${why && `: ${why}`}`, {
      file: path,
      expected: "files and folders you may write to; then run the same command again",
    });
  }
}

/**
 * Replaces a file atomically; a symlink (a settings.json shared from a dotfiles folder) is written through,
 * so the link stays a link and its target gets the text.
 */
export function writeThroughLink(path: string, data: Buffer | string): void {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch {
    // no file yet, or a dangling link: written in place
  }
  writeFileAtomic(target, data);
}

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new LoopError(
      "INSTALL_FAILED",
      `cannot read the file (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      { file: path, expected: "a readable file" },
    );
  }
}

/** Every file below dir, as POSIX paths relative to it. */
function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path).map((p) => `${name}/${p}`) : [name];
  });
}

export interface SourceFile {
  /** Target path relative to the project root (POSIX). */
  to: string;
  from: string;
}

/** What an install copies: the bundles (hooks/active.js and package.json too), the templates and the commands. */
export function sourceFiles(packageRoot: string, commandFiles: readonly string[]): SourceFile[] {
  const need = (path: string) => {
    if (!existsSync(path)) {
      throw new LoopError("INSTALL_FAILED", "the continuation-loop package is incomplete", {
        file: path,
        expected: "a full checkout or npm package (hooks/, templates/, .claude/commands/)",
      });
    }
    return path;
  };
  const hooks = need(join(packageRoot, "hooks"));
  const templates = need(join(packageRoot, "templates"));
  return [
    ...listFiles(hooks)
      .filter((f) => f !== "hooks.json")
      .sort()
      .map((f) => ({ to: `${INSTALLED_HOOKS}/${f}`, from: join(hooks, f) })),
    ...listFiles(templates)
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => ({ to: `${INSTALLED_TEMPLATES}/${f}`, from: join(templates, f) })),
    ...commandFiles.map((f) => ({
      to: `${COMMANDS_DIR}/${f}`,
      from: need(join(packageRoot, ".claude", "commands", f)),
    })),
  ];
}

/** The plugin's hook registration (hooks/hooks.json), which an install mirrors into settings.json. */
export function readHookTable(packageRoot: string): HookTable {
  const file = join(packageRoot, "hooks", "hooks.json");
  const text = readText(file);
  const table = text === undefined ? undefined : (JSON.parse(text) as { hooks?: HookTable }).hooks;
  if (!table || typeof table !== "object")
    throw new LoopError("INSTALL_FAILED", "no hook registration found", { file, expected: 'a "hooks" object' });
  return table;
}

export function readManifest(root: string): Manifest | undefined {
  const text = readText(join(root, MANIFEST));
  if (text === undefined) return undefined;
  const manifest = parseManifest(text);
  if (!manifest)
    throw new LoopError("INSTALL_FAILED", "the install record is not readable", {
      file: MANIFEST,
      expected:
        "the JSON written by continuation-loop install (restore it, or remove .claude/continuation-loop/ by hand)",
    });
  return manifest;
}

/** The package's version: package.json, the plugin manifest, or an installed copy's install.json. */
export function packageVersion(packageRoot: string): string {
  for (const file of ["package.json", ".claude-plugin/plugin.json", "install.json"]) {
    try {
      const version = (JSON.parse(readFileSync(join(packageRoot, file), "utf8")) as { version?: unknown }).version;
      if (typeof version === "string") return version;
    } catch {
      // try the next one
    }
  }
  return "unknown";
}

/** Folders between root and path that do not exist yet, outermost first. */
export function missingDirs(root: string, relDir: string): string[] {
  const parts = relDir.split("/");
  const out: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join("/");
    if (!existsSync(join(root, rel))) out.push(rel);
  }
  return out;
}
