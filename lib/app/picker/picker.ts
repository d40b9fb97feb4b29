/**
 * The picker (issue 34, DESIGN.md 5.20): the saved sessions full screen,
 * filtered as the user types, by name and folder and then by what was said
 * (the find index); Enter resumes the highlighted session through the one
 * pick path (`resumePicked`: orphan scan, vault restore, recovery choices,
 * live guard, fork following). The terminal leaves raw mode and the
 * alternate screen before anything else runs: claude, a line prompt of an
 * action (the edit list, the archived view, the machine name), which then
 * return to the picker.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { type ContentSearch, createContentSearch } from "./content_search.ts";
import { pickerEntries, type PickerEntry, previewOf, unlistedEntries } from "./picker_items.ts";
import type { EditKey } from "../edit/edit_list.ts";
import { ExitCode, InterruptedError, UserError } from "../../core/errors.ts";
import { archivedSessions, mainSessions } from "../../core/registry.ts";
import type { SessionInfoCache } from "../../core/session_info.ts";
import { cleanName } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { rememberShown } from "../shown_list.ts";
import { type FilteredRow, filterItems } from "../../ui/picker/filter.ts";
import {
  listHeight,
  previewBeside,
  type PreviewData,
  renderPicker,
} from "../../ui/picker/render.ts";
import { type PickerTerminal, type Screen, withScreen } from "../../ui/picker/screen.ts";
import { NO_SESSIONS } from "../../ui/session_list.ts";
import {
  applyKey,
  initialState,
  type PickerAction,
  type PickerState,
  scrolled,
} from "../../ui/picker/state.ts";

/** Options for {@linkcode runPicker}. */
export interface PickerOptions {
  settings: LaunchSettings;
  terminal: PickerTerminal;
  /** Colour on the screen (off with NO_COLOR). */
  colour: boolean;
  /** The launch set-up's transcript lookups, for the first rows (later ones look again). */
  cache?: SessionInfoCache;
}

/** How the picker was left; an action names the highlighted row, if any, and the filter. */
type Outcome =
  | { type: "quit" }
  | { type: "resume"; entry: PickerEntry }
  | { type: "create"; query: string }
  | { type: "action"; name: string; entry?: PickerEntry; query: string };

/**
 * Where the picker comes back to after an action: the filter and the
 * session that were on screen, so the Enter that follows resumes that
 * session (renamed or moved), not whichever is #1. A session the action
 * took out of the list (archive, delete) leaves the list as it opens.
 */
interface Return {
  query: string;
  guid?: string;
}

/** The saved sessions, or all of claude's (the saved ones, then those the list has not). */
type View = "saved" | "all";

/** Run the picker until a session is resumed or the user leaves; returns the exit code. */
export async function runPicker(ctx: AppContext, options: PickerOptions): Promise<number> {
  let settings = options.settings;
  let view: View = "saved";
  let cache = options.cache;
  let content = createContentSearch(ctx);
  let back: Return = { query: "" };
  try {
    while (true) {
      const registry = readRegistry(ctx.paths);
      const sessions = mainSessions(registry);
      const archivedCount = archivedSessions(registry).length;
      const entries = pickerEntries(ctx, { sessions, cache });
      // After an action files may have moved: the next rows look again.
      cache = undefined;
      if (view === "all") entries.push(...await unlistedEntries(ctx, sessions.length));
      if (entries.length === 0 && archivedCount === 0 && view === "saved") {
        ctx.out.line(`  ${NO_SESSIONS}`);
        return ExitCode.ok;
      }
      // What a number typed later in this terminal is checked against, as the list's (issue 33.3).
      rememberShown(ctx, savedNumbers(entries));
      const actions = pickerActions({ archivedCount, view });
      const outcome = await withScreen(
        options.terminal,
        (screen) => pick(ctx, screen, { entries, actions, content, colour: options.colour, back }),
      );
      // The terminal is as it was before the picker: claude or a prompt may have it.
      if (outcome.type === "quit") return ExitCode.ok;
      if (outcome.type === "resume") {
        content.close();
        return await resume(ctx, { settings, entry: outcome.entry });
      }
      if (outcome.type === "create") {
        // As text that is not a number does in the numbered menu (spec 11.8), asked first.
        // Its update stops before claude may start; a picker opened again starts another.
        content.close();
        const { offerNewProject } = await import("../new/new_project.ts");
        const launched = await offerNewProject(ctx, { settings, title: cleanName(outcome.query) });
        if (launched !== null) return launched;
        content = createContentSearch(ctx);
        back = { query: "" };
      } else {
        back = { query: outcome.query, guid: outcome.entry?.item.guid };
        if (outcome.name === "all") view = view === "all" ? "saved" : "all";
        else settings = await act(ctx, { settings, name: outcome.name, entry: outcome.entry });
      }
    }
  } finally {
    content.close();
  }
}

/** The saved rows' numbers with their sessions (claude's unsaved ones have no list number). */
function savedNumbers(entries: readonly PickerEntry[]): Array<[number, string]> {
  return entries.flatMap((entry) =>
    entry.candidate === undefined ? [[entry.item.number, entry.session.guid]] : []
  );
}

/** Resume a saved session through the one pick path; add one of claude's first (adopt). */
async function resume(
  ctx: AppContext,
  { settings, entry }: { settings: LaunchSettings; entry: PickerEntry },
): Promise<number> {
  // What runs after the picker loads then: the first frame waits for none of it.
  if (entry.candidate === undefined) {
    const { resumePicked } = await import("../resume/resume_picked.ts");
    return await resumePicked(ctx, { settings, session: entry.session });
  }
  const { resumeFound } = await import("../find/pick.ts");
  const { candidate } = entry;
  return await resumeFound(ctx, {
    sessionId: candidate.sessionId,
    dir: candidate.dir,
    title: candidate.title,
    registered: null,
    lastActivity: candidate.lastActivity,
    transcript: candidate.transcript,
    matches: [],
  });
}

/** The actions on the highlighted row, which only a saved session has. */
const ROW_ACTIONS: ReadonlySet<string> = new Set([
  "rename",
  "delete",
  "archive",
  "folder",
  "restore",
]);

/** The edit list's one-session keys the picker offers on the highlighted row. */
const SESSION_EDITS: Record<string, EditKey> = {
  rename: "r",
  delete: "d",
  archive: "a",
  folder: "p",
};

/** Run action `name` with its questions on the normal screen; returns the settings after it. */
async function act(
  ctx: AppContext,
  { settings, name, entry }: { settings: LaunchSettings; name: string; entry?: PickerEntry },
): Promise<LaunchSettings> {
  const edit = SESSION_EDITS[name];
  if (edit !== undefined) {
    // Only a saved session has a row to change; the view of all of claude's shows others too.
    if (entry === undefined || entry.candidate !== undefined) return settings;
    const { editSession } = await import("../edit/edit_list.ts");
    ctx.out.line();
    await editSession(ctx, { key: edit, session: entry.session });
    return settings;
  }
  if (name === "edit") await (await import("../edit/edit_list.ts")).editList(ctx);
  else if (name === "archived") await (await import("../edit/archived_view.ts")).viewArchived(ctx);
  else if (name === "machine") {
    return (await import("../launch/change_machine_name.ts")).changeMachineName(ctx, settings);
  } else if (name === "restore" && entry !== undefined && entry.candidate === undefined) {
    const { runRestore } = await import("../restore/restore.ts");
    try {
      await runRestore(ctx, { ref: entry.session.guid });
    } catch (error) {
      if (!(error instanceof UserError) || error instanceof InterruptedError) throw error;
      ctx.err.line(`  ${error.message}`, "red");
    }
    // What the restore said is read before the picker takes the screen again.
    ctx.prompter.ask("  Enter to go back to the list: ");
  }
  return settings;
}

/**
 * The footer's actions: the highlighted session's (rename, delete, archive,
 * folder, restore from the vault), the numbered menu's E, V (when there are
 * archived sessions) and M, and the switch to all of claude's sessions.
 */
function pickerActions(
  { archivedCount, view }: { archivedCount: number; view: View },
): PickerAction[] {
  return [
    { key: "r", label: "rename", name: "rename" },
    { key: "x", label: "delete", name: "delete" },
    { key: "a", label: "archive", name: "archive" },
    { key: "o", label: "folder", name: "folder" },
    { key: "y", label: "restore", name: "restore" },
    { key: "g", label: view === "all" ? "saved only" : "all claude's", name: "all" },
    { key: "e", label: "edit list", name: "edit" },
    ...(archivedCount > 0
      ? [{ key: "v", label: `archived (${archivedCount})`, name: "archived" }]
      : []),
    { key: "t", label: "machine name", name: "machine" },
  ];
}

/** The picker's loop on an open screen, until a key leaves it. */
async function pick(
  ctx: AppContext,
  screen: Screen,
  { entries, actions, content, colour, back }: {
    entries: PickerEntry[];
    actions: PickerAction[];
    content: ContentSearch;
    colour: boolean;
    back: Return;
  },
): Promise<Outcome> {
  const items = entries.map((entry) => entry.item);
  const byNumber = new Map(entries.map((entry) => [entry.item.number, entry]));
  const previews = new Map<string, PreviewData>();
  let state: PickerState = initialState();
  let rows: FilteredRow[] = filterItems(items, "");
  // Why the last key did nothing, shown until the next key.
  let notice: string | undefined;
  const refilter = () => rows = filterItems(items, state.query, content.matches(state.query));
  // Back from an action: its filter, and its session highlighted, while that is still listed.
  const returning = items.find((item) => item.guid === back.guid);
  if (returning !== undefined) {
    state = { ...state, query: back.query };
    if (back.query !== "") {
      content.ask(back.query);
      refilter();
    }
    state = { ...state, cursor: Math.max(0, rows.findIndex((row) => row.item === returning)) };
  }
  const previewFor = (columns: number): PreviewData | undefined => {
    const shows = previewBeside(columns) ? state.preview : state.previewOnly;
    const row = rows[state.cursor];
    if (!shows || row === undefined) return undefined;
    let preview = previews.get(row.item.guid);
    if (preview === undefined) {
      preview = previewOf(ctx, byNumber.get(row.item.number)!);
      previews.set(row.item.guid, preview);
    }
    return preview;
  };
  const frame = () => {
    const { columns, lines } = screen.size();
    state = scrolled(state, {
      pageSize: listHeight({ columns, lines, actions }),
      rowCount: rows.length,
    });
    screen.draw(renderPicker({
      state,
      rows,
      total: items.length,
      columns,
      lines,
      colour,
      actions,
      preview: previewFor(columns),
      status: notice ?? content.status(),
    }));
  };
  frame();
  content.start(() => screen.wake());
  while (true) {
    const event = await screen.next();
    if (event.type === "end") return { type: "quit" };
    if (event.type === "wake") refilter();
    if (event.type === "keys") {
      const { columns, lines } = screen.size();
      for (const key of event.keys) {
        notice = undefined;
        const step = applyKey(state, key, {
          rowCount: rows.length,
          pageSize: listHeight({ columns, lines, actions }),
          actions,
          wide: previewBeside(columns),
        });
        state = step.state;
        const { command } = step;
        if (command.type === "quit") return { type: "quit" };
        if (command.type === "action") {
          const row = rows[state.cursor];
          const entry = row && byNumber.get(row.item.number);
          if (ROW_ACTIONS.has(command.name) && entry?.candidate !== undefined) {
            notice = `${command.name} is for a saved session: Enter adds this one and resumes it`;
            continue;
          }
          if (ROW_ACTIONS.has(command.name) && entry === undefined) {
            notice = `${command.name}: no session is highlighted`;
            continue;
          }
          return { type: "action", name: command.name, entry, query: state.query };
        }
        if (command.type === "create") return { type: "create", query: state.query };
        if (command.type === "resume") {
          return { type: "resume", entry: byNumber.get(rows[state.cursor].item.number)! };
        }
        if (command.type === "filter") {
          content.ask(state.query);
          refilter();
        }
        if (command.type === "redraw") screen.draw([]);
      }
    }
    frame();
  }
}
