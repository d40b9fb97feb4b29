import assert from "node:assert/strict";
import { deleteOutcome, listedPaths } from "../lib/app/edit/delete_plan.ts";
import type { SessionFiles } from "../lib/core/session_copies.ts";

// What a delete lists (which is what it removes) and how it ended, decided
// without a prompt or a file.

const A: SessionFiles = { folder: "a", transcript: "a/s.jsonl", sidecar: "a/s" };
const B: SessionFiles = { folder: "b", transcript: "b/s.jsonl", sidecar: "b/s" };
const ALL = () => true;

Deno.test("every copy's transcript and sidecar is listed, in order", () => {
  assert.deepEqual(listedPaths([A, B], { staying: [], present: ALL }), [
    "a/s.jsonl",
    "a/s",
    "b/s.jsonl",
    "b/s",
  ]);
});

Deno.test("a sidecar another session's lines name stays off the list; its transcript is on it", () => {
  assert.deepEqual(listedPaths([A, B], { staying: [{ sidecar: "b/s" }], present: ALL }), [
    "a/s.jsonl",
    "a/s",
    "b/s.jsonl",
  ]);
});

Deno.test("what is not there is not listed", () => {
  const present = (path: string) => path !== "a/s";
  assert.deepEqual(listedPaths([A], { staying: [], present }), ["a/s.jsonl"]);
});

Deno.test("a delete with nothing left over is whole; one with failures names them", () => {
  assert.deepEqual(deleteOutcome({ removed: ["x"], failures: [], transcriptLeft: false }), {
    status: "deleted",
    removed: ["x"],
  });
  assert.deepEqual(deleteOutcome({ removed: [], failures: ["y: busy"], transcriptLeft: false }), {
    status: "partial",
    removed: [],
    failures: ["y: busy"],
    entryKept: false,
  });
});

Deno.test("a transcript left keeps the entry", () => {
  const outcome = deleteOutcome({
    removed: [],
    failures: ["a/s.jsonl: busy"],
    transcriptLeft: true,
  });
  assert.equal(outcome.status === "partial" && outcome.entryKept, true);
});
