/**
 * Every transcript under `<claude root>/projects/`: each project dir's
 * `<sessionId>.jsonl`, and the subagent transcripts, which belong to a
 * session: `<sessionId>/subagents/agent-*.jsonl`, or, from older versions,
 * `agent-*.jsonl` beside the sessions (their lines name the session). With
 * each, what an incremental reader needs to tell an append from a
 * replacement: size, mtime, change time and the file's identity.
 *
 * @module
 */

import { join } from "../core/path.ts";
import { type FileStamp, fileStamp } from "../core/file_change.ts";
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { isSessionId, transcriptSessionId } from "../core/registry.ts";

/** One transcript file on disk, with its stamp. */
export interface TranscriptOnDisk extends FileStamp {
  path: string;
  /**
   * The session it belongs to (a subagent's parent session); undefined for an
   * older top-level `agent-*.jsonl`, whose lines say it (head_session.ts).
   */
  sessionId: string | undefined;
  /** The project dir holding it (`<projects>/<key>`). */
  projectDir: string;
  subagent: boolean;
}

/** List every transcript under `projectsDir`; an absent dir has none. */
export function listAllTranscripts(projectsDir: string): TranscriptOnDisk[] {
  const found: TranscriptOnDisk[] = [];
  for (const project of readDirOrEmpty(projectsDir)) {
    if (!project.isDirectory) continue;
    const projectDir = join(projectsDir, project.name);
    for (const entry of readDirOrEmpty(projectDir)) {
      const sessionId = transcriptSessionId(entry.name);
      if (entry.isFile && sessionId !== null) {
        add(found, join(projectDir, entry.name), { sessionId, projectDir, subagent: false });
      } else if (entry.isFile && /^agent-.*\.jsonl$/.test(entry.name)) {
        add(found, join(projectDir, entry.name), {
          sessionId: undefined,
          projectDir,
          subagent: true,
        });
      } else if (entry.isDirectory && isSessionId(entry.name)) {
        const subagents = join(projectDir, entry.name, "subagents");
        for (const agent of readDirOrEmpty(subagents)) {
          if (!agent.isFile || !agent.name.endsWith(".jsonl")) continue;
          add(found, join(subagents, agent.name), {
            sessionId: entry.name,
            projectDir,
            subagent: true,
          });
        }
      }
    }
  }
  return found;
}

function add(
  found: TranscriptOnDisk[],
  path: string,
  where: Pick<TranscriptOnDisk, "sessionId" | "projectDir" | "subagent">,
): void {
  let stat: Deno.FileInfo;
  try {
    stat = Deno.statSync(path);
  } catch {
    return; // Removed between listing and stat.
  }
  if (!stat.isFile) return;
  found.push({ path, ...where, ...fileStamp(stat) });
}
