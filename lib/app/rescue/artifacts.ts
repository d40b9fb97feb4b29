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
import {
  NotRegularFile,
  pathExists,
  readDirOrEmpty,
  readRegularBytes,
} from "../../core/fs_checks.ts";
import { UserError } from "../../core/errors.ts";
import { decodeLossless } from "../../core/lossless_text.ts";
import type { Thread } from "./thread.ts";
import { THREADS_SUBDIR, type Workspace } from "./workspace.ts";
import { compareText } from "../../core/compare_text.ts";

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
 * unique against `taken`), then recent.md and INDEX.md rebuilt from every
 * thread there is (so a rescue killed before writing them is repaired by the
 * next), and handoff.json announcing `announce` (this run's threads, or
 * those an interrupted run never announced). A file whose content would not
 * change is left out.
 */
export function planArtifacts(
  workspace: Workspace,
  threads: Thread[],
  options: { now: Date; existing: ThreadRow[]; indexText: string | undefined; announce: Thread[] },
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
  const target = (name: string, content: string, current?: string): void => {
    const path = join(workspace.threadsDir, name);
    const before = current ?? readText(path);
    if (before === content) return;
    files.push({ path, content, action: before === undefined ? "create" : "replace" });
  };
  target("recent.md", renderRecent(rows));
  target("INDEX.md", updateIndex(options.indexText, rows), options.indexText);
  const { announce } = options;
  const newest = [...announce].sort((a, b) => compareText(b.created_at, a.created_at))[0];
  if (newest) {
    const handoff = renderHandoff(newest, announce, options.now);
    target("handoff.json", `${JSON.stringify(handoff, null, 2)}\n`);
  }
  return files;
}

/** Larger than any index or list a rescue writes. */
const WORKSPACE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A file the user may have edited, as text that gives back its exact bytes
 * (write it with `encodeLossless`); undefined when it does not exist. Only a
 * regular file is read: a pipe at that name would hang the rescue.
 */
export function readText(path: string): string | undefined {
  try {
    return decodeLossless(readRegularBytes(path, WORKSPACE_FILE_MAX_BYTES));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    if (error instanceof NotRegularFile) {
      throw new UserError(`cannot read ${path}: ${error.message}`);
    }
    throw error;
  }
}

/** recent.md: the last {@linkcode RECENT_LIMIT} threads, newest first. */
export function renderRecent(rows: ThreadRow[]): string {
  const recent = [...rows].sort((a, b) =>
    compareText(b.created_at, a.created_at) || compareText(a.id, b.id)
  ).slice(0, RECENT_LIMIT);
  return ["# Recent threads", "", TABLE_HEADER, TABLE_RULE, ...recent.map(tableRow), ""].join("\n");
}

/**
 * INDEX.md with `added` in its thread table, newest first after the header;
 * rows whose id is already listed are not added twice. A file without such a
 * table gets one appended; a missing file is created. The file is the user's:
 * only the new rows are inserted (or the new section appended), every other
 * character is kept as it was, and the new lines take the table's own line
 * ending (the file's most common one when appended).
 */
export function updateIndex(text: string | undefined, added: ThreadRow[]): string {
  const fresh = [...added].sort((a, b) => compareText(b.created_at, a.created_at))
    .filter((row) => text === undefined || !text.includes(`| ${row.id} |`));
  if (text === undefined) {
    return ["# Threads", "", TABLE_HEADER, TABLE_RULE, ...fresh.map(tableRow), ""].join("\n");
  }
  if (fresh.length === 0) return text;
  const lines = splitLines(text);
  const header = lines.findIndex((line, i) =>
    /^\|\s*Thread\s*\|/i.test(line.text) && /^\|[\s:|-]+$/.test(lines[i + 1]?.text ?? "")
  );
  if (header !== -1) {
    const rule = lines[header + 1];
    const eol = rule.eol || mostCommonEol(text);
    const at = rule.end;
    const rows = fresh.map(tableRow);
    if (rule.eol === "") return text + eol + rows.join(eol);
    return text.slice(0, at) + rows.map((row) => row + eol).join("") + text.slice(at);
  }
  const eol = mostCommonEol(text);
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

/** A line of a text: its content, its own ending ("" for a last line without one), where it ends. */
interface TextLine {
  text: string;
  eol: string;
  /** Offset just past the line's ending. */
  end: number;
}

function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  for (const match of text.matchAll(/([^\n]*?)(\r?\n|$)/g)) {
    const end = match.index + match[0].length;
    lines.push({ text: match[1], eol: match[2], end });
    if (end >= text.length) break;
  }
  return lines;
}

function mostCommonEol(text: string): string {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? "\r\n" : "\n";
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
