/**
 * The picker's state and what each key does to it: a pure step from (state,
 * key) to the next state and what the caller must do (filter again, resume
 * the highlighted session, run an action, leave). The caller keeps the rows;
 * the state keeps the query, the highlight and the first row shown.
 *
 * @module
 */

import type { Key } from "./keys.ts";

/** What the picker shows and where its highlight is. */
export interface PickerState {
  query: string;
  /** The highlighted row, an index into the filtered rows. */
  cursor: number;
  /** The first row shown: the list scrolls to keep the cursor in view. */
  top: number;
  /** The preview pane shows beside the list (wide terminals; on at first). */
  preview: boolean;
  /** The preview shows in place of the list (narrow terminals; off at first). */
  previewOnly: boolean;
}

/** An action of the footer: a Ctrl key, its label, and the name the caller acts on. */
export interface PickerAction {
  /** The Ctrl letter (`e` for Ctrl-E). */
  key: string;
  label: string;
  name: string;
}

/** What the caller does after a key. */
export type PickerCommand =
  | { type: "none" }
  /** The query changed: filter again (the cursor is back at the top). */
  | { type: "filter" }
  | { type: "resume" }
  /** Enter with a query nothing matches: offer a new project of that name (spec 11.8). */
  | { type: "create" }
  | { type: "quit" }
  | { type: "redraw" }
  | { type: "action"; name: string };

/** The state the picker opens with. */
export function initialState(): PickerState {
  return { query: "", cursor: 0, top: 0, preview: true, previewOnly: false };
}

/** What the key step needs to know of the screen and the rows. */
export interface KeyContext {
  /** How many rows the filter shows now. */
  rowCount: number;
  /** How many rows fit on the screen: PgUp/PgDn move by this. */
  pageSize: number;
  actions: readonly PickerAction[];
  /** The terminal is wide enough for the preview beside the list. */
  wide: boolean;
}

/** The next state after `key`, and what the caller must do. */
export function applyKey(
  state: PickerState,
  key: Key,
  context: KeyContext,
): { state: PickerState; command: PickerCommand } {
  const none = (next: PickerState) => ({ state: next, command: { type: "none" } as const });
  const move = (to: number) =>
    none(scrolled({ ...state, cursor: clamp(to, context.rowCount) }, context));
  const edit = (query: string) =>
    query === state.query
      ? none(state)
      : { state: { ...state, query, cursor: 0, top: 0 }, command: { type: "filter" } as const };
  const page = Math.max(1, context.pageSize);
  if (key.kind === "text") return edit(state.query + key.text);
  // Pasted lines are one query: their breaks and tabs are spaces, other controls dropped.
  if (key.kind === "paste") {
    // deno-lint-ignore no-control-regex -- control characters are what is dropped
    const text = key.text.replace(/[\r\n\t]+/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
    return edit(state.query + text);
  }
  if (key.kind === "named") {
    switch (key.name) {
      case "up":
        return move(state.cursor - 1);
      case "down":
        return move(state.cursor + 1);
      case "pageUp":
        return move(state.cursor - page);
      case "pageDown":
        return move(state.cursor + page);
      case "home":
        return move(0);
      case "end":
        return move(context.rowCount - 1);
      case "enter":
        if (context.rowCount > 0) return { state, command: { type: "resume" } };
        return { state, command: { type: state.query.trim() === "" ? "none" : "create" } };
      case "escape":
        return { state, command: { type: "quit" } };
      case "backspace":
        return edit(withoutLastCharacter(state.query));
      case "tab":
        return none(
          context.wide
            ? { ...state, preview: !state.preview }
            : { ...state, previewOnly: !state.previewOnly },
        );
      default:
        return none(state);
    }
  }
  if (key.kind === "ctrl") {
    switch (key.letter) {
      case "c":
        return { state, command: { type: "quit" } };
      case "d":
        return state.query === "" ? { state, command: { type: "quit" } } : none(state);
      case "n":
        return move(state.cursor + 1);
      case "p":
        return move(state.cursor - 1);
      case "u":
        return edit("");
      case "w":
        return edit(state.query.replace(/\S*\s*$/, ""));
      case "l":
        return { state, command: { type: "redraw" } };
    }
    const action = context.actions.find((candidate) => candidate.key === key.letter);
    if (action !== undefined) return { state, command: { type: "action", name: action.name } };
  }
  return none(state);
}

/**
 * `state` with `top` moved so the cursor is among the `pageSize` rows shown,
 * and no row hidden above while the page has room below (a terminal made
 * taller after End shows the list from its start again, not from row 14).
 */
export function scrolled(
  state: PickerState,
  { pageSize, rowCount }: { pageSize: number; rowCount: number },
): PickerState {
  const size = Math.max(1, pageSize);
  let top = Math.min(state.top, state.cursor, Math.max(0, rowCount - size));
  if (state.cursor >= top + size) top = state.cursor - size + 1;
  return top === state.top ? state : { ...state, top: Math.max(0, top) };
}

function clamp(index: number, count: number): number {
  return Math.max(0, Math.min(index, count - 1));
}

/** `text` without its last character (a whole code point, not half a surrogate pair). */
function withoutLastCharacter(text: string): string {
  const characters = [...text];
  characters.pop();
  return characters.join("");
}
