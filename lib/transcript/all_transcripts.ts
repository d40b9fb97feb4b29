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
import { readDirOrEmpty } from "../core/fs_checks.ts";
import { isSessionId, transcriptSessionId } from "../core/registry.ts";

/** One transcript file on disk. */
export interface TranscriptOnDisk {
  path: string;
  /**
   * The session it belongs to (a subagent's parent session); undefined for an
   * older top-level `agent-*.jsonl`, whose lines say it (head_session.ts).
   */
  sessionId: string | undefined;
  /** The project dir holding it (`<projects>/<key>`). */
  projectDir: string;
  subagent: boolean;
  size: number;
  mtimeMs: number;
  /**
   * The inode's change time: unlike mtime it cannot be set back, so a rewrite
   * at the same size with its old mtime restored (`cp -p`, `touch -r`) still
   * shows. Whole seconds on Linux in Deno; the mtime's time where there is none.
   */
  ctimeMs: number;
  /** `dev:ino` where the OS has inodes; else the creation time (a replacement is a new file). */
  identity: string;
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
  const identity = stat.ino !== null && stat.ino !== 0
    ? `${stat.dev}:${stat.ino}`
    : `birth:${stat.birthtime?.getTime() ?? 0}`;
  found.push({
    path,
    ...where,
    size: stat.size,
    mtimeMs: stat.mtime?.getTime() ?? 0,
    ctimeMs: stat.ctime?.getTime() ?? stat.mtime?.getTime() ?? 0,
    identity,
  });
}
