import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODULE_ENV } from "../../src/core/protocol.js";

const root = join(import.meta.dirname, "../..");
const names = new Set<string>(Object.values(MODULE_ENV));

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(join(root, dir, f), "utf8") }));
}

describe("the protocol between the command hooks and the module (src/core/protocol.ts)", () => {
  it("every variable the module reads or sets through $.env is one of the protocol's names", () => {
    const used: string[] = [];
    for (const { file, text } of sources("src/module")) {
      for (const m of text.matchAll(/\$\.env\.(?:get|set)\(\s*"(CONTINUATION_LOOP_[A-Z0-9_]+)"/g)) {
        used.push(m[1] as string);
        expect(names.has(m[1] as string), `${file}: ${m[1]}`).toBe(true);
      }
    }
    // the module sets every name the hooks read, except the user's own switch, which it only reads
    for (const name of names) expect(used, name).toContain(name);
  });

  it("no CONTINUATION_LOOP_ name of the protocol is spelled out in the hooks: they import it", () => {
    for (const { file, text } of sources("src/app").concat(sources("src/io"), sources("src/entries"))) {
      for (const name of names) {
        const code = text.replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
        // a user-facing message may name the switch that turns the module off
        const spelled =
          name === MODULE_ENV.off ? new RegExp(`env\\.${name}\\b|"${name}"`) : new RegExp(`\\b${name}\\b`);
        expect(spelled.test(code), `${file} spells ${name}`).toBe(false);
      }
    }
  });

  it("the id line and the markers are written in one place", () => {
    for (const { file, text } of sources("src/app").concat(sources("src/module"), sources("src/core"))) {
      if (file === "src/core/protocol.ts") continue;
      const code = text.replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
      expect(code.includes("[continuation-loop stop "), file).toBe(false);
      expect(code.includes("[continuation-loop fresh context]"), file).toBe(false);
      expect(code.includes("[SYSTEM REMINDER - "), file).toBe(false);
    }
  });
});
