import assert from "node:assert/strict";
import { refusedResume, type RefusedResumeFacts } from "../lib/app/after_exit/resume_end.ts";
import type { TranscriptLocation } from "../lib/core/transcript_location.ts";

// What becomes of an entry after a resume that exited non-zero, decided
// without a prompt: only a transcript found nowhere, the vault's neither,
// is offered for deletion, and each fact is asked only when it matters.

const FOUND: TranscriptLocation = {
  status: "found",
  path: "t.jsonl",
  info: {} as Deno.FileInfo,
  inOwnFolder: true,
};
const MISSING: TranscriptLocation = { status: "missing", path: "t.jsonl" };
const UNREADABLE: TranscriptLocation = {
  status: "unreadable",
  path: "t.jsonl",
  error: "permission denied",
};

/** Facts that fail the test when asked without `asked` listing them. */
function facts(
  overrides: Partial<RefusedResumeFacts>,
  asked: Array<"live" | "located" | "inVault">,
): RefusedResumeFacts {
  const never = (name: string) => () => {
    throw new Error(`${name} was asked`);
  };
  return {
    outcome: { ran: false },
    registered: true,
    live: asked.includes("live") ? () => false : never("live"),
    located: asked.includes("located") ? () => MISSING : never("located"),
    inVault: asked.includes("inVault") ? () => false : never("inVault"),
    ...overrides,
  };
}

Deno.test("a transcript found nowhere, the vault's neither, is the one entry offered for deletion", () => {
  assert.deepEqual(refusedResume(facts({}, ["live", "located", "inVault"])), {
    kind: "offer-delete",
  });
});

Deno.test("a fork claude went on in keeps the entry, asking nothing else", () => {
  assert.deepEqual(
    refusedResume(facts({ outcome: { ran: true, unfollowedFork: "f" } }, [])),
    { kind: "unclean-end" },
  );
});

Deno.test("a session open elsewhere is kept before its transcript is looked for", () => {
  assert.deepEqual(refusedResume(facts({ live: () => true }, [])), { kind: "live" });
});

Deno.test("a transcript on disk keeps the entry: work done, or claude refused it", () => {
  const found = { located: () => FOUND };
  assert.deepEqual(refusedResume(facts({ ...found, outcome: { ran: true } }, ["live"])), {
    kind: "unclean-end",
  });
  assert.deepEqual(refusedResume(facts(found, ["live"])), { kind: "on-disk", path: "t.jsonl" });
});

Deno.test("a transcript that could not be looked for is not missing", () => {
  assert.deepEqual(refusedResume(facts({ located: () => UNREADABLE }, ["live"])), {
    kind: "unreadable",
    path: "t.jsonl",
    error: "permission denied",
  });
});

Deno.test("an unsaved session with no transcript has nothing to delete: the vault is not asked", () => {
  assert.deepEqual(refusedResume(facts({ registered: false }, ["live", "located"])), {
    kind: "nowhere",
  });
});

Deno.test("the vault's copy, or a vault that cannot be looked in, keeps the entry", () => {
  assert.deepEqual(refusedResume(facts({ inVault: () => true }, ["live", "located"])), {
    kind: "in-vault",
  });
  assert.deepEqual(
    refusedResume(facts({ inVault: () => ({ why: "permission denied" }) }, ["live", "located"])),
    { kind: "vault-unreadable", why: "permission denied" },
  );
});
