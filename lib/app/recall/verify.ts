/**
 * Step 4 of the contract: check what each record left behind against the
 * live folder and repository, reading only. A written file must still hash
 * to what was written, an edited file must still hold the new text, a
 * removed file must be absent, a read file must still exist, a commit must
 * be in its branch's history, and the branch checked out must be the one the
 * session recorded. A mismatch is a divergence with what was expected and
 * what was found, unless the session itself changed the same file again
 * later (the earlier record is then superseded, not diverged).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename } from "../../core/path.ts";
import { isNotFound, readRegularFile } from "../../core/fs_checks.ts";
import type { Expectation, WorkRecord } from "../../transcript/work_records.ts";
import { oneLine } from "../../transcript/tools.ts";
import type { GitRepo } from "./git.ts";

/** What checking a record against the live state gave. */
export interface Verification {
  /**
   * `match`: as recorded; `diverged`: not as recorded; `superseded`: changed
   * again later in the session; `landed`: no result was recorded but the
   * change is on disk; `unchecked`: nothing to check (a failed call, a todo).
   */
  verdict: "match" | "diverged" | "superseded" | "landed" | "unchecked";
  expected?: string;
  found?: string;
  note?: string;
}

/** How to reach the repository, if the session used one. */
export interface RepoAccess {
  /** The repository folder, or why there is none to check. */
  repo: GitRepo | { missing: string };
}

type FileState =
  | { kind: "file"; bytes: Uint8Array }
  | { kind: "dir" }
  | { kind: "missing" }
  | { kind: "unreadable"; message: string };

type Check = { ok: true } | { ok: false; expected: string; found: string };

const MUTATING_COMMAND =
  /\b(fmt|format|prettier|black|rustfmt|gofmt|--fix|sed -i|perl -pi|patch|git (checkout|restore|stash|reset|apply|pull|merge|rebase|cherry-pick|revert))\b/;

/** Check every record; the result is keyed by record `seq`. */
export function verifyRecords(
  records: WorkRecord[],
  access: RepoAccess,
): Map<number, Verification> {
  const files = new FileCache();
  const lastCd = records.findLast((r) => r.kind === "cd")?.seq;
  const results = new Map<number, Verification>();
  for (const record of records) {
    results.set(record.seq, verifyOne(record, records, { files, access, lastCd }));
  }
  return results;
}

interface Env {
  files: FileCache;
  access: RepoAccess;
  lastCd?: number;
}

function verifyOne(record: WorkRecord, all: WorkRecord[], env: Env): Verification {
  if (record.expects.length === 0) return { verdict: "unchecked" };
  if (record.kind === "cd" && record.seq !== env.lastCd) return { verdict: "unchecked" };
  const applied = record.outcome === "success";
  const maybeApplied = record.outcome === "no-result" || record.outcome === "interrupted";
  if (!applied && !maybeApplied) return { verdict: "unchecked" };
  if (maybeApplied && record.kind !== "write" && record.kind !== "edit") {
    return { verdict: "unchecked" };
  }
  for (const expectation of record.expects) {
    const check = checkExpectation(expectation, env);
    if (check.ok) continue;
    if (maybeApplied) return { verdict: "unchecked" };
    const path = "path" in expectation ? expectation.path : undefined;
    const later = path === undefined ? undefined : laterChange(all, record, path);
    if (later !== undefined) {
      return { verdict: "superseded", note: `changed again later in the session (r${later.seq})` };
    }
    const suspect = path === undefined ? undefined : laterSuspect(all, record, path);
    return {
      verdict: "diverged",
      expected: check.expected,
      found: check.found,
      note: suspect && `possibly changed by r${suspect.seq} in the session: ${suspect.action}`,
    };
  }
  return maybeApplied
    ? { verdict: "landed", note: "no result was recorded, but the change is on disk" }
    : { verdict: "match" };
}

function checkExpectation(expectation: Expectation, env: Env): Check {
  switch (expectation.kind) {
    case "content": {
      const state = env.files.get(expectation.path);
      if (state.kind !== "file") return notAFile(state, "the content the session wrote");
      const expected = `sha256 ${
        short(expectation.sha256)
      } (${expectation.bytes} bytes), as written`;
      if (sha256(state.bytes) === expectation.sha256) return { ok: true };
      const lf = new TextDecoder().decode(state.bytes).replaceAll("\r\n", "\n");
      if (sha256(new TextEncoder().encode(lf)) === expectation.lfSha256) return { ok: true };
      return {
        ok: false,
        expected,
        found: `sha256 ${short(sha256(state.bytes))} (${state.bytes.length} bytes): changed since`,
      };
    }
    case "contains": {
      const state = env.files.get(expectation.path);
      if (state.kind !== "file") return notAFile(state, "the text the session put in");
      const text = new TextDecoder().decode(state.bytes).replaceAll("\r\n", "\n");
      const gone = expectation.texts.find((t) => !text.includes(t.replaceAll("\r\n", "\n")));
      if (gone === undefined) return { ok: true };
      return {
        ok: false,
        expected: `contains the new text "${oneLine(gone, 80)}"`,
        found: "that text is no longer in the file",
      };
    }
    case "absent": {
      const state = env.files.get(expectation.path);
      if (state.kind === "missing") return { ok: true };
      return {
        ok: false,
        expected: `${expectation.path} absent (the session removed it)`,
        found: state.kind === "unreadable" ? `unreadable: ${state.message}` : "it exists again",
      };
    }
    case "exists": {
      const state = env.files.get(expectation.path);
      if (state.kind === "file" || state.kind === "dir") return { ok: true };
      return notAFile(state, `${expectation.path} present`);
    }
    case "directory": {
      const state = env.files.get(expectation.path);
      if (state.kind === "dir") return { ok: true };
      return {
        ok: false,
        expected: `folder ${expectation.path}`,
        found: state.kind === "file" ? "a file" : "no such folder",
      };
    }
    case "commit":
      return checkCommit(expectation.commit, env.access);
    case "pushed":
      return checkPush(expectation, env.access);
  }
}

function checkCommit(
  commit: { sha: string; branch: string; subject: string },
  access: RepoAccess,
): Check {
  const where = commit.branch === "detached HEAD" ? "HEAD" : `branch ${commit.branch}`;
  const expected = `commit ${commit.sha} "${
    oneLine(commit.subject, 60)
  }" in the history of ${where}`;
  if ("missing" in access.repo) return { ok: false, expected, found: access.repo.missing };
  const place = access.repo.locateCommit(commit.sha, commit.branch);
  switch (place.found) {
    case "on-branch":
      return { ok: true };
    case "elsewhere":
      return {
        ok: false,
        expected,
        found: `not in ${where}; only in ${place.branches.join(", ")}`,
      };
    case "unreachable":
      return {
        ok: false,
        expected,
        found: `in no branch's history (reset or rebased away; the object still exists)`,
      };
    case "missing":
      return { ok: false, expected, found: "the repository does not have this commit" };
  }
}

/** A push: the remote-tracking branch still holds what was pushed (checked offline). */
function checkPush(pushed: { ref: string; sha?: string }, access: RepoAccess): Check {
  const what = pushed.sha ? `commit ${pushed.sha}` : "the branch";
  const expected = `${what} on the remote branch ${pushed.ref}, as pushed`;
  if ("missing" in access.repo) return { ok: false, expected, found: access.repo.missing };
  const holders = access.repo.remoteBranches(pushed.sha);
  if (holders === undefined) {
    return { ok: false, expected, found: "the repository does not have this commit" };
  }
  if (holders.some((name) => name.endsWith(`/${pushed.ref}`))) return { ok: true };
  return {
    ok: false,
    expected,
    found: pushed.sha
      ? `no remote-tracking branch ${pushed.ref} holds it (pushed over since, or deleted)`
      : `no remote-tracking branch ${pushed.ref}`,
  };
}

/** The first later record that changed `path` successfully (a write, edit, removal, move). */
function laterChange(all: WorkRecord[], record: WorkRecord, path: string): WorkRecord | undefined {
  return all.find((other) =>
    other.seq > record.seq && other.outcome === "success" && other.kind !== "read" &&
    other.expects.some((e) => e.kind !== "directory" && "path" in e && e.path === path)
  );
}

/** A later successful command that may have rewritten `path` (a formatter, a checkout). */
function laterSuspect(all: WorkRecord[], record: WorkRecord, path: string): WorkRecord | undefined {
  const name = basename(path);
  return all.find((other) =>
    other.seq > record.seq && other.outcome === "success" && other.tool === "Bash" &&
    other.kind !== "read" && (MUTATING_COMMAND.test(other.action) || other.action.includes(name))
  );
}

function notAFile(state: FileState, expected: string): Check {
  const found = state.kind === "missing"
    ? "the file is missing"
    : state.kind === "dir"
    ? "a folder, not a file"
    : state.kind === "unreadable"
    ? `unreadable: ${state.message}`
    : "a file";
  return { ok: false, expected, found };
}

/** Each live path read once. */
class FileCache {
  #states = new Map<string, FileState>();

  get(path: string): FileState {
    let state = this.#states.get(path);
    if (state === undefined) this.#states.set(path, state = readState(path));
    return state;
  }
}

/** Files a session wrote are source files; one past this is not read whole to check it. */
const MAX_CHECKED_BYTES = 256 * 1024 * 1024;

function readState(path: string): FileState {
  try {
    if (Deno.statSync(path).isDirectory) return { kind: "dir" };
    // A path a transcript names may be a device or a pipe now (/dev/zero would never end).
    const read = readRegularFile(path, MAX_CHECKED_BYTES);
    return "bytes" in read
      ? { kind: "file", bytes: read.bytes }
      : { kind: "unreadable", message: read.skipped };
  } catch (error) {
    if (isNotFound(error)) {
      return { kind: "missing" };
    }
    return { kind: "unreadable", message: error instanceof Error ? error.message : String(error) };
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function short(hash: string): string {
  return hash.slice(0, 12);
}
