/**
 * Writing a session's skeleton and filtered transcript to a folder: the one
 * place `claudecm skeleton` and refresh (spec 11.14 step 4) produce
 * `<guid>-skeleton.md` and `<guid>-transcript.md`. The filtered transcript is
 * written as it is read, to a temporary file that takes its name only when the
 * whole transcript proved readable, so a failure leaves neither file behind.
 *
 * @module
 */

import { collectSkeleton, type SkeletonData } from "../../transcript/skeleton.ts";
import { renderSkeleton } from "../../transcript/skeleton_render.ts";
import { visibleText } from "../../core/safe_text.ts";
import { writeFileAtomic } from "../../store/atomic_write.ts";
import { removeDeadWritersTempsOf } from "../../store/stale_temps.ts";

/** What {@linkcode extractSkeleton} wrote. */
export interface SkeletonFiles {
  skeletonPath: string;
  skeletonBytes: number;
  transcriptPath: string;
  transcriptBytes: number;
  /** The skeleton's markdown, as written. */
  skeleton: string;
  data: SkeletonData;
}

/** Options for {@linkcode extractSkeleton}. */
export interface ExtractOptions {
  /** The folder the two files go to (created when missing). */
  outDir: string;
  /** The session's name, for the skeleton's title. */
  desc: string;
  join: (...parts: string[]) => string;
}

/**
 * Characters of transcript gathered before a write. Small, so the gathered
 * pieces and their joined string die young: at 256 Ki characters they
 * outlived the young generation and the joined string (two bytes a character
 * once a CJK or symbol character is in it) went to the large-object space,
 * which cost 22 MiB of peak memory on the 100 MB bench transcript.
 */
const FLUSH_CHARS = 32 * 1024;

/** Where {@linkcode extractSkeleton} writes session `guid`'s two files in `outDir`. */
export function skeletonPaths(
  outDir: string,
  { guid, join }: { guid: string; join: (...parts: string[]) => string },
): { skeletonPath: string; transcriptPath: string } {
  return {
    skeletonPath: join(outDir, `${guid}-skeleton.md`),
    transcriptPath: join(outDir, `${guid}-transcript.md`),
  };
}

/** Read the transcript of session `guid` at `path` and write its two files. */
export function extractSkeleton(
  path: string,
  guid: string,
  options: ExtractOptions,
): SkeletonFiles {
  Deno.mkdirSync(options.outDir, { recursive: true });
  const { skeletonPath, transcriptPath } = skeletonPaths(options.outDir, {
    guid,
    join: options.join,
  });
  const tmpPath = `${transcriptPath}.tmp-${Deno.pid}`;
  removeDeadWritersTempsOf(transcriptPath); // A killed extraction's (issue 30 item 15).
  const file = Deno.openSync(tmpPath, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  // One buffer for every flush: a fresh one per flush would be too big to
  // die young and pile up until a full GC.
  const out = new Uint8Array(FLUSH_CHARS * 3);
  let pending: string[] = [];
  let pendingLength = 0;
  let transcriptBytes = 0;
  const flush = () => {
    let text = pending.join("");
    while (text.length > 0) {
      const { read, written } = encoder.encodeInto(text, out);
      for (let done = 0; done < written;) done += file.writeSync(out.subarray(done, written));
      transcriptBytes += written;
      text = text.slice(read);
    }
    pending = [];
    pendingLength = 0;
  };
  let data: SkeletonData;
  try {
    try {
      data = collectSkeleton(path, {
        onTranscript: (markdown) => {
          // Files a person may `cat`: no escape sequence from the transcript reaches a terminal.
          pending.push(visibleText(markdown));
          pendingLength += markdown.length;
          if (pendingLength >= FLUSH_CHARS) flush();
        },
      });
      flush();
    } finally {
      file.close();
    }
    const skeleton = visibleText(renderSkeleton(data, options.desc));
    writeFileAtomic(skeletonPath, skeleton);
    Deno.renameSync(tmpPath, transcriptPath);
    return {
      skeletonPath,
      skeletonBytes: encoder.encode(skeleton).length,
      transcriptPath,
      transcriptBytes,
      skeleton,
      data,
    };
  } catch (error) {
    try {
      Deno.removeSync(tmpPath);
    } catch {
      // Already renamed into place or never written.
    }
    throw error;
  }
}
