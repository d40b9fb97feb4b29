/**
 * The thread JSON a rescue writes for a dead session (recover-session.md
 * step 5): named after the time of death, status `interrupted`, category
 * `recovered`, files relative to the workspace, next actions inferred from
 * how the session ended, and the `recovery` block that later runs use to
 * skip it.
 *
 * @module
 */

import type { DeadSession } from "../../transcript/dead_scan.ts";
import type { RescueExtract } from "../../transcript/rescue_extract.ts";
import { oneLine } from "../../transcript/tools.ts";
import { detectCompany, projectName, relativize, type Workspace } from "./workspace.ts";

/** A thread in the workspace's format. */
export interface Thread {
  id: string;
  created_at: string;
  summary: string;
  status: "interrupted";
  category: "recovered";
  company: string;
  git: { branch: string | null; repos: Record<string, never> };
  files_touched: string[];
  next_actions: string[];
  recovery: {
    original_session_id: string;
    original_slug: string;
    death_timestamp: string;
    death_count: number;
    total_lines: number;
    project_dir: string;
  };
}

/** What a thread is built from. */
export interface ThreadInput {
  session: DeadSession;
  extract: RescueExtract;
  workspace: Workspace;
  summary: string;
}

const SLUG_CHARS = 40;

/** The session's slug: its own, else one made from its title, else its id's first block. */
export function sessionSlug(session: DeadSession, extract?: RescueExtract): string {
  const own = session.slug ?? extract?.slug ?? undefined;
  if (own) return slugify(own) || session.id.slice(0, 8);
  const fromTitle = slugify(session.title ?? "").split("-").slice(0, 5).join("-");
  return fromTitle || session.id.slice(0, 8);
}

/** `T-YYYYMMDD-HHMMSS-recovered-<slug>`, from the death time in UTC (when the work happened). */
export function threadId(diedAt: string, slug: string): string {
  const time = Date.parse(diedAt);
  const stamp = Number.isNaN(time)
    ? "00000000-000000"
    : new Date(time).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `T-${stamp}-recovered-${slug}`;
}

/** The thread for a dead session. */
export function buildThread(input: ThreadInput): Thread {
  const { session, extract, workspace } = input;
  const slug = sessionSlug(session, extract);
  const cwd = extract.cwd ?? session.cwd ?? null;
  const files = [...new Set([...extract.filesEdited, ...extract.filesWritten])];
  return {
    id: threadId(session.diedAt, slug),
    created_at: session.diedAt,
    summary: input.summary,
    status: "interrupted",
    category: "recovered",
    company: detectCompany(workspace, cwd, files),
    git: { branch: extract.gitBranch ?? session.gitBranch ?? null, repos: {} },
    files_touched: files.map((file) => relativize(workspace, file)),
    next_actions: nextActions(session, extract, workspace),
    recovery: {
      original_session_id: session.id,
      original_slug: slug,
      death_timestamp: session.diedAt,
      death_count: extract.deathCount,
      total_lines: extract.totalLines,
      project_dir: projectName(workspace, cwd, session.projectDir),
    },
  };
}

/** One or two sentences from the extract: what the session set out to do, where it stopped. */
export function mechanicalSummary(session: DeadSession, extract: RescueExtract): string {
  const goal = extract.firstUserMessage
    ? `Set out to: ${oneLine(extract.firstUserMessage, 160)}`
    : `Session ${sessionSlug(session, extract)}${session.title ? ` (${session.title})` : ""}`;
  const last = extract.lastSummaries.at(-1);
  const where = last ? ` Last progress: ${oneLine(last, 160)}` : "";
  return `${sentence(goal)}${where ? sentence(where) : ""}`.trim();
}

/** What to do next, from how the session ended. */
function nextActions(
  session: DeadSession,
  extract: RescueExtract,
  workspace: Workspace,
): string[] {
  const actions: string[] = [];
  const cwd = extract.cwd ?? session.cwd;
  const relative = cwd ? relativize(workspace, cwd) : undefined;
  const where = relative === undefined
    ? "the project"
    : relative === "."
    ? "the workspace root"
    : relative;
  if (extract.filesTouchedCount > 0) {
    actions.push(
      `Check the working tree in ${where} (git status, git diff): ` +
        `${extract.filesTouchedCount} file(s) were changed and their state at death is unknown`,
    );
  }
  const lastCommit = extract.gitCommands.findLastIndex((cmd) => /\scommit\b/.test(cmd));
  const lastPush = extract.gitCommands.findLastIndex((cmd) => /\spush\b/.test(cmd));
  if (lastCommit !== -1 && lastPush < lastCommit) {
    actions.push(
      "Review the last commit the session made and push it: the session never pushed it",
    );
  }
  const last = extract.lastSummaries.at(-1);
  if (last) actions.push(`Pick up from the last step: ${oneLine(last, 200)}`);
  if (extract.firstUserMessage) {
    actions.push(`Confirm the original goal is met: ${oneLine(extract.firstUserMessage, 150)}`);
  }
  if (extract.deathCount > 1) {
    actions.push(
      `Split the remaining work into smaller sessions: this one hit the context limit ` +
        `${extract.deathCount} times`,
    );
  }
  actions.push(
    `Continue in a fresh session from this thread (resuming ${session.id} needs /compact first)`,
  );
  return actions;
}

function slugify(text: string): string {
  const slug = text.normalize("NFKD").replace(/[\u0300-\u036f'’]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.slice(0, SLUG_CHARS).replace(/-+$/, "");
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? `${trimmed} ` : `${trimmed}. `;
}
