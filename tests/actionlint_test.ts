import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../lib/core/path.ts";
import { lintWorkflow, NEWER_RUNNER_LABELS, workflowFiles } from "../scripts/actionlint.ts";

const WORKFLOWS = fileURLToPath(new URL("../.github/workflows/", import.meta.url));

/** A workflow with one job on `label` and `steps`. */
function workflow(label: string, steps = "      - uses: actions/checkout@v4\n"): string {
  return `on: push\njobs:\n  a:\n    runs-on: ${label}\n    steps:\n${steps}`;
}

Deno.test("both workflows pass actionlint", async () => {
  const files = workflowFiles(WORKFLOWS);
  assert.deepEqual(files.map((f) => f.slice(WORKFLOWS.length)), ["ci.yml", "release.yml"]);
  for (const file of files) {
    assert.deepEqual(await lintWorkflow(Deno.readTextFileSync(file), file), [], file);
  }
});

Deno.test("actionlint finds what reading misses; only the newer runner labels are added", async () => {
  const kinds = async (text: string) => (await lintWorkflow(text, "x.yml")).map((f) => f.kind);
  assert.deepEqual(await kinds(workflow("macos-99")), ["runner-label"]);
  for (const label of [...NEWER_RUNNER_LABELS, "macos-14", "ubuntu-24.04-arm", "windows-latest"]) {
    assert.deepEqual(await kinds(workflow(label)), [], label);
  }
  const badInput = "      - uses: actions/upload-artifact@v4\n        with:\n          pathh: x\n";
  assert.ok((await kinds(workflow("ubuntu-latest", badInput))).includes("action"));
  const badExpression = "      - run: echo ${{ matrix.nothing }}\n";
  assert.deepEqual(await kinds(workflow("ubuntu-latest", badExpression)), ["expression"]);
  const found = await lintWorkflow(workflow("macos-99"), join("a", "x.yml"));
  assert.equal(found[0].file, join("a", "x.yml"));
  assert.ok(found[0].line > 0 && found[0].column > 0);
});
