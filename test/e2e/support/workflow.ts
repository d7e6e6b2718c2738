// The GitHub Actions workflow of docs/ci/ read and run here, as a runner would run one job of its matrix:
// its `run:` steps for real in bash (GitHub's default shell), with the workflow's, the job's and the step's
// env and the few expressions it uses; its `uses:` steps done as the action would (a checkout, a Node
// set-up, an upload), since actions need GitHub.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { REPO_ROOT } from "./runClaude.js";

export const WORKFLOW = path.join(REPO_ROOT, "docs", "ci", "continuation-loop.yml");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

interface Workflow {
  env?: Record<string, string>;
  on: { workflow_dispatch?: { inputs?: Record<string, { default?: string }> } };
  jobs: Record<
    string,
    { env?: Record<string, string>; steps: Step[]; strategy?: { matrix: Record<string, string[]> } }
  >;
}

export function readWorkflow(): Workflow {
  return parse(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
}

/** `${{ matrix.goal }}`, `${{ secrets.X }}`, `${{ inputs.x || '20' }}`: anything else is refused, so the workflow stays within what this run checks. */
function evaluate(text: string, contexts: Record<string, Record<string, string | undefined>>): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => {
    for (const alternative of expression.split("||").map((s) => s.trim())) {
      const literal = /^'(.*)'$/.exec(alternative);
      if (literal) return literal[1] ?? "";
      const ref = /^(\w+)\.([\w-]+)$/.exec(alternative);
      const context = ref ? contexts[ref[1] as string] : undefined;
      if (!ref || !context) throw new Error(`the workflow uses an expression this run does not know: ${alternative}`);
      const value = context[ref[2] as string];
      if (value) return value;
    }
    return "";
  });
}

export interface StepResult {
  step: Step;
  /** Skipped: an earlier step failed and this one does not run `always()`. */
  skipped: boolean;
  code: number | null;
  output: string;
}

/**
 * Runs one job of the workflow for one entry of its matrix in `workspace` (the checked-out project).
 * `checkout` puts continuation-loop where a checkout with `path:` would; `env` is the runner's environment.
 */
export async function runJob(opts: {
  job: string;
  matrix: Record<string, string>;
  secrets: Record<string, string>;
  workspace: string;
  env: Record<string, string>;
  checkout: (dir: string) => void;
  /** Cancels the job during the step of that name once `when` resolves, as a runner does (see {@link runScript}). */
  cancel?: { step: string; when: Promise<unknown> };
}): Promise<StepResult[]> {
  const workflow = readWorkflow();
  const job = workflow.jobs[opts.job];
  if (!job) throw new Error(`no job ${opts.job} in ${WORKFLOW}`);
  const inputs = Object.fromEntries(
    Object.entries(workflow.on.workflow_dispatch?.inputs ?? {}).map(([k, v]) => [k, v.default]),
  );
  const base = { matrix: opts.matrix, secrets: opts.secrets, inputs, strategy: { "job-index": "0" } };
  const env: Record<string, string> = {};
  const withEnv = (values: Record<string, string> | undefined) => {
    for (const [k, v] of Object.entries(values ?? {})) env[k] = evaluate(String(v), { ...base, env });
  };
  withEnv(workflow.env);
  withEnv(job.env);

  const results: StepResult[] = [];
  let failed = false;
  let cancelled = false;
  for (const step of job.steps) {
    if (cancelled && step.if !== "always()") {
      results.push({ step, skipped: true, code: null, output: "" });
      continue;
    }
    if (step.if !== undefined && step.if !== "always()")
      throw new Error(`a condition this run does not know: ${step.if}`);
    if (failed && step.if !== "always()") {
      results.push({ step, skipped: true, code: null, output: "" });
      continue;
    }
    const cancelHere = opts.cancel !== undefined && opts.cancel.step === step.name ? opts.cancel.when : undefined;
    const stepEnv = { ...env };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = evaluate(String(v), { ...base, env });
    const result =
      step.run !== undefined
        ? await runScript(step.run, opts.workspace, { ...opts.env, ...stepEnv }, cancelHere)
        : doAction(step, opts, { ...base, env });
    if (cancelHere) cancelled = true;
    results.push({ step, skipped: false, ...result });
    if (result.code !== 0) failed = true;
  }
  return results;
}

/** What the actions the workflow uses do, here. */
function doAction(
  step: Step,
  opts: { workspace: string; checkout: (dir: string) => void },
  contexts: Record<string, Record<string, string | undefined>>,
): { code: number; output: string } {
  const action = (step.uses ?? "").split("@")[0];
  const input = (key: string) =>
    step.with?.[key] === undefined ? undefined : evaluate(String(step.with[key]), contexts);
  if (action === "actions/checkout") {
    // The project itself is the workspace; a checkout with a path is continuation-loop's.
    const dir = input("path");
    if (dir !== undefined) opts.checkout(path.join(opts.workspace, dir));
    return { code: 0, output: `checkout ${input("repository") ?? "the project"}` };
  }
  if (action === "actions/setup-node") return { code: 0, output: `node ${process.version} on PATH` };
  if (action === "actions/upload-artifact") {
    const files = (input("path") ?? "").split("\n").filter(Boolean);
    const found = files.filter((f) => fs.existsSync(path.join(opts.workspace, f)));
    return { code: 0, output: `artifact ${input("name")}: ${found.join(", ")}` };
  }
  throw new Error(`an action this run does not know: ${step.uses}`);
}

/** The grace a runner gives a cancelled step after SIGINT, then after SIGTERM, before it kills what is left (ms). */
const CANCEL_GRACE = { sigint: 7_500, sigterm: 2_500 };

/**
 * A `run:` step as GitHub runs it on Linux: its script written to a file, `bash --noprofile --norc -eo pipefail
 * FILE` (a file, not `-c`: bash then does not exec its last command by itself). Cancelled once `cancel` resolves
 * as a runner cancels a job or a timeout ends it: SIGINT to the shell alone, SIGTERM after a grace, then SIGKILL to
 * all the step started.
 */
function runScript(
  script: string,
  cwd: string,
  env: Record<string, string>,
  cancel?: Promise<unknown>,
): Promise<{ code: number | null; output: string }> {
  const file = path.join(fs.mkdtempSync(path.join(path.dirname(cwd), "runner-temp-")), "step.sh");
  fs.writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", file], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      // A group of its own: what the step started is killed with it at the end of a cancel.
      detached: true,
    });
    const timers: NodeJS.Timeout[] = [];
    const killGroup = () => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // nothing left
      }
    };
    void cancel?.then(() => {
      child.kill("SIGINT");
      timers.push(setTimeout(() => child.kill("SIGTERM"), CANCEL_GRACE.sigint));
      timers.push(setTimeout(killGroup, CANCEL_GRACE.sigint + CANCEL_GRACE.sigterm));
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      output += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      output += d;
    });
    child.on("close", (code) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
