/**
 * `claudecm skeleton <guid|path>`: the refresh extractor on its own. Reads
 * one transcript and writes only the two files it names: no bootstrap, no
 * backups, no registry write.
 *
 * @module
 */

import { environmentUserError, ExitCode, UserError } from "../../core/errors.ts";
import { formatSize } from "../../core/format.ts";
import { notATranscriptFile, probePath } from "../../core/fs_checks.ts";
import { canonicalSessionId, findSession, isSessionId } from "../../core/registry.ts";
import { removeIfEmpty } from "../../store/merge_move.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { safeJson } from "../../core/safe_text.ts";
import type { AppContext } from "../context.ts";
import { typedPath } from "../folder_option.ts";
import { resolveSession } from "../session/resolve_session.ts";
import { extractSkeleton, skeletonPaths } from "./extract.ts";
import { skippedLinesNote } from "../../transcript/entries.ts";

/** What `skeleton` was asked to do. */
export interface SkeletonCommandOptions {
  /**
   * A session id (looked up in the registry, then the project folders), a transcript path, or
   * what the session resolver takes (a list number, a saved name, an id prefix).
   */
  target: string;
  desc?: string;
  /** The output folder; the current one by default. */
  out?: string;
  /** Replace output files that are already there. */
  force?: boolean;
  /** Print `{sessionId, skeleton, transcript}` (paths and bytes) instead of two lines. */
  json?: boolean;
}

/** Run `skeleton`; returns the exit code. */
export function runSkeleton(ctx: AppContext, options: SkeletonCommandOptions): number {
  // A usage error first, before the session is looked for.
  const outDir = options.out === undefined ? ctx.cwd() : typedPath(ctx, options.out);
  const source = resolveSource(ctx, options.target);
  const made = prepareOutDir(ctx, outDir, { guid: source.guid, force: options.force === true });
  let files;
  try {
    files = extractSkeleton(source.path, source.guid, {
      outDir,
      desc: options.desc ?? source.desc ?? "Unnamed",
      join: ctx.paths.path.join,
    });
  } catch (error) {
    // A refused transcript leaves no folder this run made.
    for (const folder of made) removeIfEmpty(folder);
    throw error;
  }
  const skipped = skippedLinesNote(files.data.report);
  if (options.json) {
    ctx.out.line(safeJson({
      sessionId: source.guid,
      skeleton: { path: files.skeletonPath, bytes: files.skeletonBytes },
      transcript: { path: files.transcriptPath, bytes: files.transcriptBytes },
      skipped,
    }, 2));
    return 0;
  }
  if (skipped !== null) ctx.err.line(`skeleton: ${skipped}; what they held is not in the files`);
  ctx.out.line(`${files.skeletonPath} (${formatSize(files.skeletonBytes)})`);
  ctx.out.line(`${files.transcriptPath} (${formatSize(files.transcriptBytes)})`);
  return 0;
}

interface Source {
  path: string;
  guid: string;
  desc?: string;
}

function resolveSource(ctx: AppContext, target: string): Source {
  if (isSessionId(target)) return sourceOfId(ctx, target);
  // A list number is a session even where a file of that name happens to be.
  const probe = /^\d+$/.test(target.trim()) ? { kind: "missing" as const } : probePath(target);
  // A path that cannot be looked at is not "not found" (DESIGN.md 5.11).
  if (probe.kind === "unreadable") throw new UserError(`cannot read ${target}: ${probe.error}`);
  if (probe.kind === "other") throw notATranscriptFile(target);
  if (probe.kind === "file") {
    const base = ctx.paths.path.basename(target).replace(/\.jsonl$/i, "");
    const session = isSessionId(base) ? findSession(readRegistry(ctx.paths), base) : undefined;
    return { path: target, guid: base, desc: session?.desc };
  }
  if (probe.kind === "directory" || /[\\/]|\.jsonl$/i.test(target)) {
    throw new UserError(`not a session id or a transcript file: ${target}`, ExitCode.notFound);
  }
  // A list number, a saved name or an id's first characters: the one resolver decides.
  const { session } = resolveSession(ctx, target, { notFoundCode: ExitCode.notFound });
  return sourceOfId(ctx, session.guid);
}

/** The transcript of session `target` (an id), registered or in any project folder. */
function sourceOfId(ctx: AppContext, target: string): Source {
  const guid = canonicalSessionId(target);
  const session = findSession(readRegistry(ctx.paths), guid);
  const located = locateTranscript(ctx.paths, { guid, dir: session?.dir ?? ctx.cwd() });
  if (located.status === "unreadable") {
    throw new UserError(`cannot look for session ${target}: ${located.error}: ${located.path}`);
  }
  if (located.status === "missing") {
    throw new UserError(
      `no transcript for session ${target} under ${ctx.paths.projectsDir}`,
      ExitCode.notFound,
    );
  }
  return { path: located.path, guid, desc: session?.desc };
}

/** The longest file name most file systems take (ext4, APFS, NTFS: 255). */
const MAX_NAME_BYTES = 255;

/**
 * The output folder exists (made if need be) and holds no file the run would
 * replace, unless `force`: a file in its place, a folder that cannot be
 * made, or a skeleton already written is said in one line, and so is a
 * folder where an output file goes (nothing is written then, not even the
 * other file). Returns the folders it made, deepest first.
 */
function prepareOutDir(
  ctx: AppContext,
  outDir: string,
  { guid, force }: { guid: string; force: boolean },
): string[] {
  const probe = probePath(outDir);
  if (probe.kind === "unreadable") throw new UserError(`cannot use ${outDir}: ${probe.error}`);
  if (probe.kind !== "missing" && probe.kind !== "directory") {
    throw new UserError(`--out ${outDir} is a file, not a folder`, ExitCode.usage);
  }
  const paths = skeletonPaths(outDir, { guid, join: ctx.paths.path.join });
  // Each file is written under its name plus a temporary suffix first (extract.ts).
  const longest = `${ctx.paths.path.basename(paths.transcriptPath)}.tmp-${Deno.pid}`;
  if (new TextEncoder().encode(longest).length > MAX_NAME_BYTES) {
    throw new UserError(
      `the transcript's name is too long to name the output files after it ` +
        `(${ctx.paths.path.basename(paths.transcriptPath)}); copy it to a shorter name first`,
    );
  }
  for (const path of [paths.skeletonPath, paths.transcriptPath]) {
    const probe = probePath(path);
    if (probe.kind === "unreadable") throw new UserError(`cannot write ${path}: ${probe.error}`);
    const kind = probe.kind;
    if (kind === "directory") {
      throw new UserError(`${path} is a folder where the output goes; move it away`);
    }
    if (!force && kind !== "missing") {
      throw new UserError(`${path} already exists; --force replaces it`, ExitCode.usage);
    }
  }
  const made: string[] = [];
  for (
    let folder = outDir;
    probePath(folder).kind === "missing";
    folder = ctx.paths.path.dirname(folder)
  ) {
    made.push(folder);
    if (ctx.paths.path.dirname(folder) === folder) break;
  }
  try {
    Deno.mkdirSync(outDir, { recursive: true });
    return made;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/ \(os error \d+\).*$/s, "") : "";
    throw environmentUserError(error) ??
      new UserError(`cannot create the folder ${outDir}: ${reason}`);
  }
}
