import assert from "node:assert/strict";
import { join } from "node:path";
import {
  forkAfterResume,
  newestSession,
  newSessionBetween,
  snapshotFolder,
} from "../lib/core/session_files.ts";
import { sessionId } from "./helpers/claude_home.ts";

const [A, B, C, D] = [1, 2, 3, 4].map(sessionId);

Deno.test("snapshotFolder lists only UUID-named transcripts with their mtimes", () => {
  const folder = Deno.makeTempDirSync();
  try {
    for (const name of [`${A}.jsonl`, `${B}.jsonl`, "notes.jsonl", `${C}.jsonl.cmv-trim-tmp`]) {
      Deno.writeTextFileSync(join(folder, name), "{}\n");
    }
    Deno.mkdirSync(join(folder, `${D}.jsonl`));
    Deno.utimeSync(join(folder, `${A}.jsonl`), 1000, 1000);
    const snapshot = snapshotFolder(folder, join);
    assert.deepEqual([...snapshot.keys()].sort(), [A, B]);
    assert.equal(snapshot.get(A), 1_000_000);
    assert.deepEqual(snapshotFolder(join(folder, "missing"), join), new Map());
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("the set-diff ignores pre-existing files however recently touched", () => {
  const before = new Map([[A, 100], [B, 200]]);
  // Another window wrote A after our launch: it is newer than our new file C.
  assert.equal(newSessionBetween(before, new Map([[A, 900], [B, 200], [C, 500]])), C);
  assert.equal(newSessionBetween(before, new Map([[A, 900], [B, 200]])), null);
  assert.equal(newSessionBetween(new Map(), new Map([[C, 5], [D, 7]])), D);
  assert.equal(newestSession(new Map()), null);
});

Deno.test("fork detection: a new newest file is a fork; the original or an old file is not", () => {
  const before = new Map([[A, 100], [B, 300]]);
  assert.equal(forkAfterResume(A, before, new Map([[A, 400], [B, 300], [C, 500]])), C);
  assert.equal(forkAfterResume(A, new Map(), new Map([[A, 100], [C, 300]])), C);
  assert.equal(forkAfterResume(A, before, new Map([[A, 500], [B, 300]])), null);
  // B was there before and another window wrote to it while we ran: not a fork.
  assert.equal(forkAfterResume(A, before, new Map([[A, 400], [B, 900], [D, 10]])), null);
  assert.equal(forkAfterResume(A, before, new Map()), null);
  // Written in the same millisecond as the original (a /clear, a quick fork): the new file, in
  // whichever order the folder was read.
  assert.equal(forkAfterResume(A, before, new Map([[A, 400], [C, 400], [B, 300]])), C);
  assert.equal(forkAfterResume(A, before, new Map([[C, 400], [A, 400], [B, 300]])), C);
  assert.equal(forkAfterResume(A, before, new Map([[B, 400], [C, 400]])), C);
});
