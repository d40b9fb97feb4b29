import assert from "node:assert/strict";
import { createOutput } from "../lib/ui/output.ts";
import { createProgress } from "../lib/ui/progress.ts";

function output(terminal: boolean) {
  let text = "";
  return { out: createOutput((t) => text += t, { colour: false, terminal }), text: () => text };
}

Deno.test("the progress bar draws in place on a terminal, after a moment, and clears itself", async () => {
  const { out, text } = output(true);
  const progress = createProgress(out, "Indexing transcripts");
  progress.update(1, 100);
  assert.equal(text(), "", "nothing for quick work");
  await new Promise((resolve) => setTimeout(resolve, 350));
  progress.update(50 * 1024 * 1024, 100 * 1024 * 1024);
  assert.match(text(), /^\r {2}Indexing transcripts \[#{15} {15}\] 50% 50\/100 MB$/);
  progress.done();
  assert.ok(text().endsWith("\r"), "the line is blanked and the cursor back at its start");
});

Deno.test("the progress bar prints nothing off a terminal", async () => {
  const { out, text } = output(false);
  const progress = createProgress(out, "Indexing transcripts");
  await new Promise((resolve) => setTimeout(resolve, 350));
  progress.update(5, 10);
  progress.done();
  assert.equal(text(), "");
});
