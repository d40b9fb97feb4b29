/**
 * Golden files: the skeleton and filtered transcript of each reference
 * transcript. After an intended change, rewrite them with
 * `UPDATE_GOLDEN=1 npx deno test -A tests/skeleton_golden_test.ts` and review the diff.
 */
import assert from "node:assert/strict";
import { collectSkeleton } from "../lib/transcript/skeleton.ts";
import { renderSkeleton } from "../lib/transcript/skeleton_render.ts";
import { pathFromUrl } from "./helpers/portable.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const SOURCES = [
  "transcripts/example-session.jsonl",
  "transcripts/real-claude/2.1.197-forked.jsonl",
  "transcripts/real-claude/2.1.197-interactive-named.jsonl",
  "transcripts/real-claude/2.1.332-interactive-named.jsonl",
  "transcripts/real-claude/2.1.332-print.jsonl",
];
const update = Deno.env.get("UPDATE_GOLDEN") === "1";

for (const source of SOURCES) {
  Deno.test(`skeleton golden files for ${source}`, () => {
    let transcript = "";
    const data = collectSkeleton(pathFromUrl(source, FIXTURES), {
      onTranscript: (text) => transcript += text,
    });
    const name = source.split("/").pop()!.replace(/\.jsonl$/, "");
    check(`skeleton/${name}-skeleton.md`, renderSkeleton(data, "Golden"));
    check(`skeleton/${name}-transcript.md`, transcript);
  });
}

function check(golden: string, actual: string): void {
  const url = new URL(golden, FIXTURES);
  if (update) Deno.writeTextFileSync(url, actual);
  assert.equal(
    actual,
    Deno.readTextFileSync(url),
    `${golden} differs (UPDATE_GOLDEN=1 rewrites it)`,
  );
}
