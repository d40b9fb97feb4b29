/**
 * A refresh's scratch folder, `<cmHome>/refresh-temp/<stamp>-<guid>/`, and
 * what goes in it: the skeleton and the filtered transcript of the old
 * session, which the prompt points claude at (spec 11.14 steps 1-3).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { extractSkeleton } from "../skeleton/extract.ts";
import type { RefreshExtraction } from "./refresh_prompt.ts";
import { errorMessage } from "../../core/errors.ts";
import { isWriteRefusal } from "../../core/write_refusal.ts";
import { formatSize, formatStamp } from "../../core/format.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { SkeletonError } from "../../transcript/skeleton.ts";

/** Scratch dirs of refreshes older than this are removed (spec 11.14 step 3). */
const STALE_TEMP_MS = 24 * 3_600_000;

/** `<cmHome>/refresh-temp/<stamp>-<guid>/`, after removing those older than a day. */
export function createTempDir(ctx: AppContext, guid: string): string {
  const root = ctx.paths.refreshTempDir;
  const cutoff = ctx.now().getTime() - STALE_TEMP_MS;
  try {
    for (const entry of Deno.readDirSync(root)) {
      const path = ctx.paths.path.join(root, entry.name);
      const mtime = entry.isDirectory ? Deno.statSync(path).mtime?.getTime() : undefined;
      if (mtime !== undefined && mtime < cutoff) removeQuietly(path);
    }
  } catch {
    // No refresh-temp yet, or unreadable: the cleanup is best-effort.
  }
  Deno.mkdirSync(root, { recursive: true });
  // A name no other refresh has, even of this session in the same second.
  return Deno.makeTempDirSync({ dir: root, prefix: `${formatStamp(ctx.now())}-${guid}-` });
}

/** The skeleton and filtered transcript, or what is missing and why (refresh goes on without). */
export function extract(
  ctx: AppContext,
  options: { guid: string; dir: string; desc: string; tempDir: string },
): RefreshExtraction {
  const located = locateTranscript(ctx.paths, { guid: options.guid, dir: options.dir });
  if (located.status !== "found") {
    const why = located.status === "missing"
      ? "Old session transcript not found"
      : `Cannot read the old session's transcript (${located.error}: ${located.path})`;
    ctx.out.line(`  ${why}, skipping skeleton extraction.`, "yellow");
    return {};
  }
  const transcript = located.path;
  ctx.out.line();
  ctx.out.line("  Extracting session skeleton...");
  try {
    const files = extractSkeleton(transcript, options.guid, {
      outDir: options.tempDir,
      desc: options.desc,
      join: ctx.paths.path.join,
    });
    ctx.out.line("  Skeleton extracted.", "green");
    ctx.out.line(`  Filtered transcript: ${formatSize(files.transcriptBytes)}`, "green");
    return { skeleton: files.skeleton, transcriptPath: files.transcriptPath };
  } catch (error) {
    // A refresh-temp folder that cannot be written (issue 30 item 11), or a file we may not read.
    if (!(error instanceof SkeletonError) && !isWriteRefusal(error)) {
      throw error;
    }
    ctx.out.line(`  No skeleton: ${errorMessage(error)}. Going on without one.`, "yellow");
    return {};
  }
}

export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Best-effort cleanup of claudecm's own scratch files.
  }
}
