/**
 * `claudecm find TERM...`: search what was said in every session, in every
 * project, and resume a hit. Through the index by default (brought up to
 * date first, so never stale); `--no-index` and `--regex` scan instead and
 * write nothing. `--json` never prompts; in a terminal, a picked result is
 * resumed through the one resume path.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { ExitCode, UsageError } from "../../core/errors.ts";
import { projectDirFor } from "../../core/paths.ts";
import { resolveRealPath } from "../../core/project_key.ts";
import { readRegistry } from "../../store/registry_store.ts";
import type { SearchRole } from "../../transcript/search_text.ts";
import { type Since, sinceTime } from "../../core/since.ts";
import type { IndexStats } from "./index_update.ts";
import { type FindResult, rankSessions, type SessionMatches } from "./results.ts";
import { MARK_CLOSE, MARK_OPEN } from "./snippet.ts";
import { ftsMatch, highlightPattern, matchesAll, parseTerms, rawPrecheck } from "./terms.ts";
import { DEFAULT_FIND_LIMIT } from "./defaults.ts";
import { folderOption } from "../folder_option.ts";
import { askPick, printResults } from "./find_view.ts";
import { safeJson } from "../../core/safe_text.ts";

/** What `--role` names: what was said by the user, by claude, or a tool call. */
export type FindRole = "user" | "assistant" | "tool";

/** What `find` was asked. */
export interface FindOptions {
  terms: string[];
  /** The table's parser checked them (lib/cli/find.ts). */
  role?: FindRole[];
  project?: string;
  since?: Since;
  limit?: number;
  json?: boolean;
  /** false with `--no-index`. */
  index?: boolean;
  regex?: boolean;
  /** `--regex` ignores case (`-i`); words always do. */
  ignoreCase?: boolean;
  toolOutput?: boolean;
}

/** `find --json`'s document. */
export interface FindJson {
  results: FindResult[];
  /** What the index update read; null when no index was used. */
  indexed: { files: number; bytes: number; ms: number } | null;
}

/** Run `find`; returns the exit code. */
export async function runFind(ctx: AppContext, options: FindOptions): Promise<number> {
  const roles = rolesOf(options);
  const since = options.since === undefined ? undefined : sinceTime(options.since, ctx.now());
  const project = options.project === undefined ? undefined : projectFilter(ctx, options.project);
  const limit = options.limit ?? DEFAULT_FIND_LIMIT;
  let sessions: SessionMatches[];
  let indexed: IndexStats | null = null;
  // Each way loads only its own modules: the scan, or the index (node:sqlite).
  if (options.regex) {
    const flags = options.ignoreCase ? "iu" : "u";
    const pattern = compileRegex(options.terms.join(" "), flags);
    const { scanSearch } = await import("./scan_search.ts");
    sessions = await scanSearch(ctx.paths.projectsDir, {
      matches: (text) => pattern.test(text),
      highlight: new RegExp(pattern.source, `g${flags}`),
      roles,
      since,
      project,
    });
  } else {
    const terms = parseTerms(options.terms);
    const scan = async () => {
      const { scanSearch } = await import("./scan_search.ts");
      return await scanSearch(ctx.paths.projectsDir, {
        matches: (text) => matchesAll(terms, text),
        precheck: rawPrecheck(terms),
        highlight: highlightPattern(terms),
        roles,
        since,
        project,
      });
    };
    if (options.index === false) sessions = await scan();
    else {
      const { IndexUnwritable, searchIndex } = await import("./index_search.ts");
      try {
        const found = await searchIndex(
          ctx,
          {
            match: ftsMatch(terms),
            highlight: highlightPattern(terms),
            scan: { matches: (text) => matchesAll(terms, text), precheck: rawPrecheck(terms) },
            roles,
            since,
            project,
          },
          { sessionLimit: limit },
        );
        sessions = found.sessions;
        indexed = found.indexed;
      } catch (error) {
        // An index that cannot be brought up to date could hide what was said since: scan instead.
        if (!(error instanceof IndexUnwritable)) throw error;
        ctx.err.line(`  ${error.message}; searching the transcripts without it.`, "yellow");
        sessions = await scan();
      }
    }
  }
  const results = rankSessions(ctx, sessions, { registry: readRegistry(ctx.paths), limit });
  if (options.json) {
    const json: FindJson = {
      results: results.map((result) => ({
        ...result,
        matches: result.matches.map((match) => ({
          ...match,
          snippet: match.snippet.replaceAll(MARK_OPEN, "").replaceAll(MARK_CLOSE, ""),
        })),
      })),
      indexed: indexed && { files: indexed.files, bytes: indexed.bytes, ms: indexed.ms },
    };
    ctx.out.line(safeJson(json, 2));
    return ExitCode.ok;
  }
  printResults(ctx, results);
  if (results.length === 0 || !ctx.interactive) return ExitCode.ok;
  const picked = askPick(ctx, results);
  if (picked === undefined) return ExitCode.ok;
  // The resume chain loads only when a result is picked.
  const { resumeFound } = await import("./pick.ts");
  return await resumeFound(ctx, picked);
}

/** The roles searched: --role's, else all but tool output; --tool-output adds it. */
function rolesOf(options: FindOptions): SearchRole[] {
  const roles: SearchRole[] = options.role ?? ["user", "assistant", "tool"];
  return options.toolOutput && (options.role === undefined || roles.includes("tool"))
    ? [...roles, "tool_output"]
    : roles;
}

function projectFilter(ctx: AppContext, dir: string) {
  const absolute = folderOption(ctx, dir, { option: "--project" }).replace(/[\\/]+$/, "") ||
    ctx.paths.path.sep;
  const real = resolveRealPath(absolute);
  return {
    projectDir: projectDirFor(ctx.paths, real),
    shared: ctx.paths.projectDirName !== undefined,
    cwds: [...new Set([real, absolute])],
    ignoreCase: ctx.os === "windows" || ctx.os === "darwin",
  };
}

function compileRegex(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new UsageError(`--regex: ${error instanceof Error ? error.message : error}`);
  }
}
