/**
 * The files of a workspace's threads folder that a rescue reads and updates
 * (recover-session.md steps 1d and 6): the thread files themselves, the
 * sessions they already recovered, `recent.md` (the last 15 threads, newest
 * first), `INDEX.md` (every thread: new rows are added to its table, the
 * rest of the file is kept as it is) and `handoff.json`.
 *
 * The render functions are pure; {@linkcode planArtifacts} says what would be
 * written, so `--dry-run` can show it and a real run writes exactly that.
 *
 * @module
 */

import { join } from "../../core/path.ts";
import { pathExists, readDirOrEmpty } from "../../core/fs_checks.ts";
import type { Thread } from "./thread.ts";
import { THREADS_SUBDIR, type Workspace } from "./workspace.ts";

/** The fields of a thread file the tables show. */
export interface ThreadRow {
  id: string;
  created_at: string;
  summary: string;
  status: string;
}

/** A file a rescue writes, with its full new content. */
export interface PlannedFile {
  path: string;
  content: string;
  /** `create` when the file does not exist yet. */
  action: "create" | "replace";
}

/** How many threads recent.md lists. */
const RECENT_LIMIT = 15;

const RECOVERED_ID = /"original_session_id"\s*:\s*"([^"\\]+)"/g;
const TABLE_HEADER = "| Thread | Created | Summary | Status |";
const TABLE_RULE = "|--------|---------|---------|--------|";

/** Session ids the threads in `threadsDir` already recovered (a cheap text match, as grep). */
export function recoveredSessionIds(threadsDir: string): Set<string> {
  const ids = new Set<string>();
  for (const { text } of threadFiles(threadsDir)) {
    for (const match of text.matchAll(RECOVERED_ID)) ids.add(match[1]);
  }
  return ids;
}

/** The threads in `threadsDir` that parse, with the fields the tables need. */
export function readThreadRows(threadsDir: string): ThreadRow[] {
  const rows: ThreadRow[] = [];
  for (const { text } of threadFiles(threadsDir)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const record = value as Record<string, unknown>;
    if (typeof record.id !== "string") continue;
    rows.push({
      id: record.id,
      created_at: typeof record.created_at === "string" ? record.created_at : "",
      summary: typeof record.summary === "string" ? record.summary : "",
      status: typeof record.status === "string" ? record.status : "",
    });
  }
  return rows;
}

/**
 * Everything a rescue of `threads` writes: one file per thread (its id made
 * unique against `taken`), then recent.md, INDEX.md and handoff.json.
 */
export function planArtifacts(
  workspace: Workspace,
  threads: Thread[],
  options: { now: Date; existing: ThreadRow[]; indexText: string | undefined },
): PlannedFile[] {
  const taken = new Set(options.existing.map((row) => row.id));
  const files: PlannedFile[] = [];
  for (const thread of threads) {
    thread.id = uniqueId(thread.id, taken, workspace.threadsDir);
    taken.add(thread.id);
    files.push({
      path: join(workspace.threadsDir, `${thread.id}.json`),
      content: `${JSON.stringify(thread, null, 2)}\n`,
      action: "create",
    });
  }
  const rows = [...options.existing, ...threads.map(toRow)];
  const target = (name: string, content: string): PlannedFile => {
    const path = join(workspace.threadsDir, name);
    return { path, content, action: pathExists(path) ? "replace" : "create" };
  };
  files.push(target("recent.md", renderRecent(rows)));
  // A new INDEX.md lists every thread there is, not only the ones recovered now.
  const indexed = options.indexText === undefined ? rows : threads.map(toRow);
  files.push(target("INDEX.md", updateIndex(options.indexText, indexed)));
  const newest = [...threads].sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  if (newest) {
    files.push(
      target(
        "handoff.json",
        `${JSON.stringify(renderHandoff(newest, threads, options.now), null, 2)}\n`,
      ),
    );
  }
  return files;
}

/** recent.md: the last {@linkcode RECENT_LIMIT} threads, newest first. */
export function renderRecent(rows: ThreadRow[]): string {
  const recent = [...rows].sort((a, b) =>
    b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id)
  ).slice(0, RECENT_LIMIT);
  return ["# Recent threads", "", TABLE_HEADER, TABLE_RULE, ...recent.map(tableRow), ""].join("\n");
}

/**
 * INDEX.md with `added` in its thread table, newest first after the header;
 * rows whose id is already listed are not added twice. A file without such a
 * table gets one appended; a missing file is created.
 */
export function updateIndex(text: string | undefined, added: ThreadRow[]): string {
  const fresh = [...added].sort((a, b) => b.created_at.localeCompare(a.created_at))
    .filter((row) => text === undefined || !text.includes(`| ${row.id} |`));
  if (text === undefined) {
    return ["# Threads", "", TABLE_HEADER, TABLE_RULE, ...fresh.map(tableRow), ""].join("\n");
  }
  if (fresh.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((line, i) =>
    /^\|\s*Thread\s*\|/i.test(line) && /^\|[\s:|-]+$/.test(lines[i + 1] ?? "")
  );
  if (header !== -1) {
    lines.splice(header + 2, 0, ...fresh.map(tableRow));
    return lines.join(eol);
  }
  const ending = text === "" || text.endsWith("\n") ? "" : eol;
  return text + ending +
    [
      "",
      "## Recovered threads",
      "",
      TABLE_HEADER,
      TABLE_RULE,
      ...fresh.map(tableRow),
      "",
    ].join(eol);
}

/** handoff.json for the newest recovered thread. */
export function renderHandoff(newest: Thread, all: Thread[], now: Date): Record<string, string> {
  const others = all.length > 1 ? ` (and ${all.length - 1} more)` : "";
  const next = newest.next_actions[0] ? ` ${newest.next_actions[0]}` : "";
  return {
    created_at: now.toISOString(),
    message: `Recovered dead session: ${newest.recovery.original_slug}${others}`,
    last_thread: newest.id,
    thread_path: `${THREADS_SUBDIR}/${newest.id}.json`,
    context_notes: `${newest.summary.replace(/[.\s]+$/, "")}. Died from context limits.${next}`,
  };
}

function toRow(thread: Thread): ThreadRow {
  return {
    id: thread.id,
    created_at: thread.created_at,
    summary: thread.summary,
    status: thread.status,
  };
}

function tableRow(row: ThreadRow): string {
  const summary = row.summary.replace(/\s+/g, " ").replaceAll("|", "\\|").trim();
  const cut = summary.length > 100 ? `${summary.slice(0, 99)}…` : summary;
  return `| ${row.id} | ${row.created_at.slice(0, 10)} | ${cut} | ${row.status} |`;
}

function uniqueId(id: string, taken: Set<string>, dir: string): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate) || pathExists(join(dir, `${candidate}.json`)); n++) {
    candidate = `${id}-${n}`;
  }
  return candidate;
}

function threadFiles(dir: string): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = [];
  for (const entry of readDirOrEmpty(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".json") || entry.name === "handoff.json") continue;
    try {
      files.push({ name: entry.name, text: Deno.readTextFileSync(join(dir, entry.name)) });
    } catch {
      // Unreadable thread file: neither listed nor counted as a recovery.
    }
  }
  return files;
}
