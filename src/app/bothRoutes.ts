import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "./context.js";
import { BOTH_ROUTES_LINE, INSTALL_DIR, MANIFEST } from "../core/installLayout.js";
import { resolveProjectRoot } from "../core/loopFiles.js";

/**
 * At a session's start, the plugin's hook names a project where `install` put the hooks too: both copies run on
 * every event, so each stop is counted twice. The installed copy's own hook says nothing, so the line comes once.
 */
export function warnBothRoutes(ctx: Context, cwd: string | undefined): string {
  const root = resolveProjectRoot(ctx.env, cwd, ctx.cwd);
  if (!existsSync(join(root, MANIFEST))) return "";
  try {
    if (realpathSync(join(root, INSTALL_DIR)) === ctx.packageRoot) return "";
  } catch {
    return "";
  }
  return `${JSON.stringify({ systemMessage: BOTH_ROUTES_LINE })}\n`;
}
