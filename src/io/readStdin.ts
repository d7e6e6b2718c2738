import { readFileSync } from "node:fs";

/** All of stdin as text; "" when there is none (closed, a TTY, or an error). */
export function readStdin(): string {
  if (process.stdin.isTTY) return "";
  try {
    return readFileSync(0, "utf8");
  } catch {
    return "";
  }
}
