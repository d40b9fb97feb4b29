/**
 * Read-only git queries for `recall`: the current branch, whether a commit
 * exists and which branches hold it. Only query subcommands are run, with
 * GIT_OPTIONAL_LOCKS=0 so not even an index refresh is written, and no
 * prompt can appear (GIT_TERMINAL_PROMPT=0).
 *
 * @module
 */

import { UserError } from "../../core/errors.ts";
import type { OsName } from "../../core/paths.ts";
import { type QueryAnswer, runQuerySync } from "../../platform/spawn.ts";

/** One finished git query. */
export interface GitAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git -C dir ...args`; injected so tests can count or refuse calls. */
export type GitRunner = (dir: string, args: string[]) => GitAnswer;

/** Where a commit is now. */
export type CommitPlace =
  | { found: "on-branch"; branch: string }
  | { found: "elsewhere"; branches: string[] }
  | { found: "unreachable" }
  | { found: "missing" };

const QUERY_SUBCOMMANDS = new Set([
  "rev-parse",
  "branch",
  "cat-file",
  "merge-base",
  "for-each-ref",
]);

/**
 * The real git, found on PATH, started through lib/platform/spawn.ts with
 * the children's environment (`ctx.childEnv()`).
 */
export function createGitRunner(options: { env: Record<string, string>; os: OsName }): GitRunner {
  const git = "git";
  const env = { ...options.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  return (dir, args) => {
    if (!QUERY_SUBCOMMANDS.has(args[0])) {
      throw new Error(`recall runs read-only git queries only, not git ${args[0]}`);
    }
    let output: QueryAnswer;
    try {
      // Where claudecm is: the folder asked about goes in -C, whatever its name.
      output = runQuerySync(git, ["-C", dir, ...args], { cwd: undefined, env, os: options.os });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new UserError(
          `git not found (${git}): recall needs git to check the session's commits and branch`,
        );
      }
      throw error;
    }
    return { code: output.code, stdout: output.stdout.trim(), stderr: output.stderr.trim() };
  };
}

/** Read-only questions about the repository at one folder. */
export class GitRepo {
  constructor(readonly dir: string, readonly run: GitRunner) {}

  /** Why the folder cannot be asked about (not a work tree, git refusing it), or undefined. */
  problem(): string | undefined {
    const answer = this.run(this.dir, ["rev-parse", "--is-inside-work-tree"]);
    if (answer.code === 0 && answer.stdout === "true") return undefined;
    const reason = answer.stderr.split("\n").find((line) => /dubious ownership/.test(line));
    return reason === undefined
      ? `no git repository at ${this.dir}`
      : `git refuses the repository at ${this.dir}: ${reason.replace(/^fatal: /, "")}`;
  }

  /** The checked-out branch, or `detached at <sha>`. */
  currentBranch(): string {
    const branch = this.run(this.dir, ["branch", "--show-current"]).stdout;
    if (branch !== "") return branch;
    const head = this.run(this.dir, ["rev-parse", "--short", "HEAD"]);
    return head.code === 0 ? `detached at ${head.stdout}` : "no commit checked out";
  }

  /**
   * The remote-tracking branches holding `sha` (all of them without one);
   * undefined when the repository does not have the commit.
   */
  remoteBranches(sha?: string): string[] | undefined {
    const args = ["branch", "-r", "--format=%(refname:short)"];
    if (sha !== undefined) {
      const full = this.run(this.dir, ["rev-parse", "--verify", "--quiet", `${sha}^{commit}`]);
      if (full.code !== 0) return undefined;
      args.push("--contains", full.stdout);
    }
    const answer = this.run(this.dir, args);
    return answer.code === 0 ? answer.stdout.split("\n").filter((b) => b !== "") : [];
  }

  /** Where `sha` is: in `branch`'s history (HEAD's when detached), elsewhere, or gone. */
  locateCommit(sha: string, branch: string): CommitPlace {
    const full = this.run(this.dir, ["rev-parse", "--verify", "--quiet", `${sha}^{commit}`]);
    if (full.code !== 0) return { found: "missing" };
    const tip = branch === "detached HEAD" ? "HEAD" : `refs/heads/${branch}`;
    const tipExists = this.run(this.dir, ["rev-parse", "--verify", "--quiet", tip]).code === 0;
    if (tipExists) {
      const ancestor = this.run(this.dir, ["merge-base", "--is-ancestor", full.stdout, tip]);
      if (ancestor.code === 0) return { found: "on-branch", branch };
    }
    const holders = this.run(this.dir, [
      "branch",
      "--format=%(refname:short)",
      "--contains",
      full.stdout,
    ]);
    const branches = holders.code === 0 ? holders.stdout.split("\n").filter((b) => b !== "") : [];
    return branches.length > 0 ? { found: "elsewhere", branches } : { found: "unreachable" };
  }
}
