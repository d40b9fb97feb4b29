/**
 * What was said, for the picker's filter: the find index (DESIGN.md 5.12)
 * brought up to date once the first frame is on the screen, in a worker so
 * that keys are drawn meanwhile, then asked for each query once typing
 * pauses. The last word typed is a prefix, so
 * matches come while a word is half typed. Nothing is written to the
 * screen from here (the picker owns it): no progress bar, and a failure
 * (another claudecm holding the index, a damaged or unwritable one) only
 * leaves content matches out, with a word in the status.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { FindIndexDb } from "../../store/find_index_db.ts";
import type { ContentMatches } from "../../ui/picker/filter.ts";
import { HIT_CLOSE, HIT_OPEN } from "../../ui/picker/render.ts";

/** How long typing must pause before the index is asked. */
export const CONTENT_PAUSE_MS = 120;
/** Sessions asked of the index per query: more than a screen shows. */
const SESSION_LIMIT = 100;

/** The picker's content search. */
export interface ContentSearch {
  /**
   * Bring the index up to date in the background, once; `onChange` (the
   * latest given) hears of results and state.
   */
  start(onChange: () => void): void;
  /** The user typed `query`: search it once typing pauses. */
  ask(query: string): void;
  /** The matches of `query`, when they are known. */
  matches(query: string): ContentMatches | undefined;
  /** A word for the query line while the index is not ready, or cannot be used. */
  status(): string | undefined;
  close(): void;
}

/** A content search over `ctx`'s find index. */
export function createContentSearch(ctx: AppContext): ContentSearch {
  let db: FindIndexDb | undefined;
  let search: Searcher | undefined;
  let state: "idle" | "indexing" | "ready" | "failed" = "idle";
  let closed = false;
  let worker: Worker | undefined;
  let wanted = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onChange = () => {};
  const results = new Map<string, ContentMatches>();
  const run = () => {
    timer = undefined;
    if (db === undefined || search === undefined) return;
    if (results.has(wanted) || wordsOf(wanted).length === 0) return;
    results.set(wanted, search(db, wanted));
    onChange();
  };
  return {
    start(listener) {
      // A picker opened again (after an action) hears of the update that is still running.
      onChange = listener;
      if (state !== "idle" || closed) return;
      state = "indexing";
      // After the first frame is drawn: the caller's frame is written before this runs.
      setTimeout(async () => {
        try {
          // The index (node:sqlite) loads only now, after the first frame.
          search = await loadSearcher(ctx);
          db = await openUpToDate(ctx, (started) => worker = started);
          state = db === undefined ? "failed" : "ready";
        } catch {
          state = "failed";
        }
        // Closed while it was updating (a resume went ahead): nobody asks any more.
        if (closed) {
          db?.close();
          db = undefined;
          return;
        }
        run();
        onChange();
      }, 0);
    },
    ask(query) {
      wanted = query;
      clearTimeout(timer);
      if (wordsOf(query).length > 0 && !results.has(query)) {
        timer = setTimeout(run, CONTENT_PAUSE_MS);
      }
    },
    matches: (query) => results.get(query),
    status() {
      if (state === "indexing") return "indexing…";
      if (state === "failed") return "content search unavailable";
      if (wordsOf(wanted).length > 0 && !results.has(wanted)) return "searching…";
      return undefined;
    },
    close() {
      closed = true;
      // An update still running goes: what it committed stays, the rest is read next time.
      worker?.terminate();
      clearTimeout(timer);
      db?.close();
      db = undefined;
    },
  };
}

function wordsOf(query: string): string[] {
  return query.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
}

/**
 * Bring the index up to date in a worker (index_worker.ts), then open it for
 * reading; undefined when there is none to read. `onWorker` hears of the
 * worker, which the caller ends when it leaves before the update does.
 */
async function openUpToDate(
  ctx: AppContext,
  onWorker: (worker: Worker) => void,
): Promise<FindIndexDb | undefined> {
  const [{ findIndexPath }, { FindIndexDb }] = await Promise.all([
    import("../find/index_search.ts"),
    import("../../store/find_index_db.ts"),
  ]);
  const path = findIndexPath(ctx.paths);
  Deno.mkdirSync(ctx.paths.cmHome, { recursive: true });
  const worker = new Worker(new URL("./index_worker.ts", import.meta.url), { type: "module" });
  onWorker(worker);
  try {
    await new Promise<void>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) =>
        event.data.done ? resolve() : reject(new Error(String(event.data.failed)));
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
      worker.postMessage({ path, projectsDir: ctx.paths.projectsDir });
    });
  } finally {
    worker.terminate();
  }
  return FindIndexDb.open(path, { writer: false });
}

/** Asks an open index for a query's matches. */
type Searcher = (db: FindIndexDb, text: string) => ContentMatches;

/** Each matching session's first snippet, the hits marked as the renderer wants them. */
async function loadSearcher(ctx: AppContext): Promise<Searcher> {
  const [{ searchOpenIndex }, terms, { MARK_CLOSE, MARK_OPEN }] = await Promise.all([
    import("../find/index_search.ts"),
    import("../find/terms.ts"),
    import("../find/snippet.ts"),
  ]);
  const marked = (snippet: string) =>
    snippet.replaceAll(MARK_OPEN, HIT_OPEN).replaceAll(MARK_CLOSE, HIT_CLOSE);
  return (db, text) => {
    const words = wordsOf(text);
    try {
      const parsed = terms.parseTerms(
        words.map((word, i) => i === words.length - 1 ? `${word}*` : word),
      );
      const sessions = searchOpenIndex(db, {
        match: terms.ftsMatch(parsed),
        highlight: terms.highlightPattern(parsed),
        scan: {
          matches: (line) => terms.matchesAll(parsed, line),
          precheck: terms.rawPrecheck(parsed),
        },
        roles: ["user", "assistant"],
      }, { sessionLimit: SESSION_LIMIT, now: ctx.now() });
      return new Map(
        sessions.flatMap((session) =>
          session.matches[0] === undefined
            ? []
            : [[session.sessionId, marked(session.matches[0].snippet)]]
        ),
      );
    } catch {
      return new Map();
    }
  };
}
