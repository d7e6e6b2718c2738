// The least an active Stop can do with the product's packages (gray-matter splits, yaml parses with byte
// ranges, zod validates the input, the fields and the sidecar), and nothing of the product's own: no
// lock, transcript, decision, notes or history fields. `bench/run.mjs` builds it as the hooks are built
// and times it beside them ("floor"), so the active Stop's ratio can be read against what the
// packages cost by themselves (docs/PERFORMANCE.md).
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import matter from "gray-matter";
import { isMap, isScalar, parseDocument } from "yaml";
import * as z from "zod/mini";

const input = z
  .looseObject({ session_id: z.string(), cwd: z.string(), last_assistant_message: z.optional(z.string()) })
  .parse(JSON.parse(readFileSync(0, "utf8")));
const state = `${input.cwd}/.claude/continuation-loop.local.md`;
const sidecar = `${input.cwd}/.claude/continuation-loop.runtime.json`;

const text = readFileSync(state, "utf8");
const block = matter(text, { engines: { yaml: { parse: () => ({}), stringify: () => "" } } });
const doc = parseDocument(block.matter, { uniqueKeys: false });
const int = (min: number) => z.int().check(z.minimum(min));
const fields = z
  .looseObject({
    active: z.boolean(),
    iteration_count: int(1),
    max_iterations: int(1),
    completion_promise: z.union([z.string(), z.array(z.string())]),
    max_duration: z.union([z.string(), z.number()]),
    max_tokens: int(1),
    notes_file: z.string(),
    session_id: z.string(),
    started_at: z.string(),
  })
  .parse(doc.toJS());

const count = z._default(z.int().check(z.gte(0)), 0);
const runtime = z
  .object({
    loop: z.object({ started_at: z.string(), session_id: z.string() }),
    stall_count: count,
    output_tokens: count,
  })
  .parse(JSON.parse(readFileSync(sidecar, "utf8")));

// The new count spliced into the value's byte range, as the product's edit does.
const pair = isMap(doc.contents)
  ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === "iteration_count")
  : undefined;
const range = isScalar(pair?.value) ? pair.value.range : undefined;
if (!range) process.exit(1);
const at = text.indexOf(block.matter);
const next = `${text.slice(0, at + range[0])}${fields.iteration_count + 1}${text.slice(at + range[1])}`;

function writeAtomic(path: string, data: string): void {
  const fd = openSync(`${path}.tmp`, "w");
  writeSync(fd, data);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}
writeAtomic(state, next);
writeAtomic(sidecar, `${JSON.stringify({ ...runtime, stall_count: 0 }, null, 2)}\n`);
const record = { iteration: fields.iteration_count, at: new Date().toISOString(), decision: "continue" };
appendFileSync(`${input.cwd}/.claude/continuation-loop.history.jsonl`, `${JSON.stringify(record)}\n`);
const max = fields.max_iterations;
writeSync(
  2,
  `[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]\niteration ${fields.iteration_count + 1}/${max}\n\n${block.content}`,
);
process.exit(2);
