import assert from "node:assert/strict";
import { type FreshFacts, judgeFreshAnswer } from "../lib/app/refresh/fresh_answer.ts";
import type { PrintResult } from "../lib/platform/claude.ts";

// What a refresh makes of claude's -p answer, decided without claude or a prompt.

const OLD = "4f6b8daa-7ea9-4b8d-9a6c-5d1e2f3a4b5c";
const FRESH = "5a7c9ebb-8fba-4c9e-8b7d-6e2f3a4b5c6d";
const OTHER = "6b8daf0c-9a0b-4d1f-9c8e-7f3a4b5c6d7e";

function answer(overrides: Partial<PrintResult> & { timedOut?: boolean } = {}): PrintResult {
  const { timedOut = false, ...rest } = overrides;
  return {
    sessionId: FRESH,
    result: "Done.",
    isError: false,
    answerIsError: false,
    run: { code: 0, stdout: "", stderr: "", timedOut },
    ...rest,
  };
}

const FACTS: FreshFacts = {
  guid: OLD,
  chosen: null,
  before: new Set([OLD]),
  transcriptWritten: true,
  timeoutMs: 10 * 60_000,
  projectDir: "projects-key",
};

Deno.test("a written session claude names, not the old one nor one there before, is the new one", () => {
  assert.deepEqual(judgeFreshAnswer(answer(), FACTS), { fresh: FRESH });
  assert.deepEqual(judgeFreshAnswer(answer(), { ...FACTS, chosen: FRESH }), { fresh: FRESH });
});

Deno.test("a timed-out run is said as such, before anything else it may have named", () => {
  assert.deepEqual(judgeFreshAnswer(answer({ timedOut: true, sessionId: OLD }), FACTS), {
    why: "claude did not answer within 10 minutes",
  });
});

Deno.test("a session that is not this run's is never taken: the old, another, or one there before", () => {
  for (
    const [sessionId, facts] of [
      [OLD, FACTS],
      [OTHER, { ...FACTS, chosen: FRESH }],
      [OTHER, { ...FACTS, before: new Map([[OTHER, 1]]) }],
    ] as const
  ) {
    assert.deepEqual(judgeFreshAnswer(answer({ sessionId }), facts), {
      why: `claude named session ${sessionId}, not the new one it was asked to start`,
    });
  }
});

Deno.test("a failed run gives its own reason; a success naming nothing gives none of its text", () => {
  const failed = answer({
    isError: true,
    run: { code: 1, stdout: "", stderr: "boom\n", timedOut: false },
  });
  assert.deepEqual(judgeFreshAnswer(failed, FACTS), { why: "boom" });
  assert.deepEqual(judgeFreshAnswer(answer({ sessionId: null }), FACTS), {
    why: "claude named no session it started",
  });
  assert.deepEqual(judgeFreshAnswer(answer({ sessionId: "not-an-id" }), FACTS), {
    why: "claude named no session it started",
  });
});

Deno.test("an answer alone is no session: without its transcript there is none", () => {
  assert.deepEqual(judgeFreshAnswer(answer(), { ...FACTS, transcriptWritten: false }), {
    why: `claude wrote no transcript for session ${FRESH} in projects-key`,
  });
});
