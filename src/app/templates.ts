import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LoopError } from "../core/errors.js";
import { unifyLineBreaks } from "../core/lineBreaks.js";

/** Project templates (an install copies ours there; users may add their own) win over the package's. */
function templateDirs(root: string, packageRoot: string): string[] {
  return [join(root, ".claude", "continuation-loop", "templates"), join(packageRoot, "templates")];
}

/** Names of every template that can be used here. */
function listTemplates(root: string, packageRoot: string): string[] {
  const names = new Set<string>();
  for (const dir of templateDirs(root, packageRoot)) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) if (file.endsWith(".md")) names.add(file.slice(0, -3));
  }
  return [...names].sort();
}

/** templates/NAME.md → its text and path; LoopError listing the available names when missing. */
export function readTemplate(name: string, root: string, packageRoot: string): { text: string; file: string } {
  for (const dir of templateDirs(root, packageRoot)) {
    const file = join(dir, `${name}.md`);
    // The new state file is written with LF whatever the template's line breaks.
    if (existsSync(file)) return { text: unifyLineBreaks(readFileSync(file, "utf8")), file };
  }
  const names = listTemplates(root, packageRoot);
  throw new LoopError("TEMPLATE_NOT_FOUND", `there is no template named ${JSON.stringify(name)}`, {
    field: "--template",
    expected: names.length
      ? `one of ${names.join(", ")}`
      : "a templates/ folder beside hooks/ (reinstall continuation-loop)",
  });
}
