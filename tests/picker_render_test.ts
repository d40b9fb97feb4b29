import assert from "node:assert/strict";
import { filterItems, haystackOf, type PickerItem } from "../lib/ui/picker/filter.ts";
import { applyKey, initialState, type PickerState, scrolled } from "../lib/ui/picker/state.ts";
import { listHeight, type RenderInput, renderPicker } from "../lib/ui/picker/render.ts";
import { displayWidth } from "../lib/ui/text_width.ts";
import type { Key } from "../lib/ui/picker/keys.ts";

function items(count: number, name = (n: number) => `Session ${n}`): PickerItem[] {
  return Array.from({ length: count }, (_, i) => {
    const folder = `/home/u/project-${i + 1}`;
    return {
      number: i + 1,
      guid: `guid-${i + 1}`,
      name: name(i + 1),
      folder,
      age: "Mar 13",
      size: "12 KB",
      tokens: "--",
      live: false,
      haystack: haystackOf(name(i + 1), folder),
    };
  });
}

function render(
  list: PickerItem[],
  options: Partial<RenderInput> & { state?: PickerState } = {},
): string[] {
  const state = options.state ?? initialState();
  return renderPicker({
    state,
    rows: filterItems(list, state.query),
    total: list.length,
    columns: 80,
    lines: 20,
    colour: false,
    actions: [{ key: "e", label: "edit", name: "edit" }],
    ...options,
  });
}

// deno-lint-ignore no-control-regex -- escape codes are what is checked
const ESCAPES = /\x1b\[[0-9;]*m/g;

Deno.test("render: every line is the terminal's width less one, wide characters counted", () => {
  const list = items(
    5,
    (n) => n === 2 ? "日本語のセッション 😀 名前がとても長い名前がとても長い" : `S${n}`,
  );
  for (const [columns, lines] of [[80, 20], [40, 10], [120, 30], [100, 12]]) {
    const screen = render(list, { columns, lines });
    assert.equal(screen.length, lines);
    for (const line of screen) assert.equal(displayWidth(line), columns - 1, line);
  }
});

Deno.test("render: 40x10 shows the query, rows with numbers and the footer", () => {
  const screen = render(items(30), { columns: 40, lines: 10 });
  assert.match(screen[0], /^> _ +30\/30$/);
  assert.match(screen[1], /^> +1\. Session 1/);
  assert.match(screen[2], /^ +2\. Session 2/);
  assert.match(screen[9], /Enter resume/);
  assert.equal(listHeight({ columns: 40, lines: 10, actions: [] }), 8);
});

Deno.test("render: the list scrolls to keep the highlight visible", () => {
  const list = items(50);
  const pageSize = listHeight({ columns: 60, lines: 10, actions: [] });
  const context = { rowCount: 50, pageSize, actions: [], wide: false };
  let state = initialState();
  const press = (key: Key, times = 1) => {
    for (let i = 0; i < times; i++) state = applyKey(state, key, context).state;
  };
  press({ kind: "named", name: "down" }, 12);
  let screen = render(list, { state, columns: 60, lines: 10 });
  const marked = screen.filter((line) => /^> +13\./.test(line));
  assert.equal(marked.length, 1, screen.join("\n"));
  assert.match(screen[8], /^> +13\./, "the highlight is on the last row shown");
  press({ kind: "named", name: "end" });
  screen = render(list, { state, columns: 60, lines: 10 });
  assert.match(screen[8], /^> +50\./);
  press({ kind: "named", name: "pageUp" });
  screen = render(list, { state, columns: 60, lines: 10 });
  assert.ok(screen.some((line) => /^> +42\./.test(line)), screen.join("\n"));
  press({ kind: "named", name: "home" });
  screen = render(list, { state, columns: 60, lines: 10 });
  assert.match(screen[1], /^> +1\./);
  press({ kind: "ctrl", letter: "p" });
  assert.equal(state.cursor, 0, "Up at the top stays");
});

Deno.test("render: a terminal made taller shows the rows above again, not blank lines below", () => {
  const list = items(22);
  const small = listHeight({ columns: 60, lines: 10, actions: [] });
  let state = applyKey(initialState(), { kind: "named", name: "end" }, {
    rowCount: 22,
    pageSize: small,
    actions: [],
    wide: false,
  }).state;
  assert.equal(state.top, 22 - small);
  state = scrolled(state, {
    pageSize: listHeight({ columns: 60, lines: 30, actions: [] }),
    rowCount: 22,
  });
  const screen = render(list, { state, columns: 60, lines: 30 });
  assert.match(screen[1], /^ +1\. Session 1/, screen.join("\n"));
  assert.ok(screen.some((line) => /^> +22\./.test(line)), "the highlight stays on #22");
  // Taller than needed for the rows above the cursor only: as many as fit, the cursor last.
  state = scrolled({ ...state, top: 15 }, { pageSize: small, rowCount: 22 });
  assert.equal(state.top, 22 - small);
});

Deno.test("render: escape sequences in names and snippets are shown as text", () => {
  const list = items(2, (n) => n === 1 ? "Ev\x1b[2J\x1b]0;x\x07il\u202e" : "Plain");
  const state = { ...initialState(), query: "" };
  const content = new Map([["guid-2", "said \u0001\x1b[2Jclear\u0002 here"]]);
  const rows = filterItems(list, "clear", content);
  const screen = renderPicker({
    state: { ...state, query: "clear" },
    rows,
    total: 2,
    columns: 100,
    lines: 10,
    colour: true,
    actions: [],
  }).concat(render(list, { colour: false }));
  for (const line of screen) {
    // deno-lint-ignore no-control-regex -- control characters are what must not be there
    assert.doesNotMatch(line.replace(ESCAPES, ""), /[\x00-\x1f\x7f-\x9f\u202e]/, line);
  }
  assert.ok(screen.some((line) => line.includes("Ev^[[2J^[]0;x^Gil<U+202E>")), screen.join("\n"));
  assert.ok(screen.some((line) => line.includes("^[[2Jclear")), screen.join("\n"));
});

Deno.test("render: no colour codes at all without colour; colour marks the highlight", () => {
  const plain = render(items(3), { colour: false });
  assert.ok(plain.every((line) => !line.includes("\x1b")));
  const coloured = render(items(3), { colour: true });
  assert.ok(coloured[1].startsWith("\x1b[7m"), JSON.stringify(coloured[1]));
});

Deno.test("render: the preview shows beside the list at 100 columns, in place of it when narrow", () => {
  const preview = {
    facts: [{ label: "Folder", value: "/home/u/project-1" }, { label: "Id", value: "guid-1" }],
    prompts: ["fix the tests", "now the \x1b[31mbuild"],
  };
  const wide = render(items(3), { columns: 120, lines: 12, preview });
  const long = render(items(3), {
    columns: 100,
    lines: 12,
    preview: { facts: [{ label: "Folder", value: "/x".repeat(40) + "/END" }], prompts: [] },
  });
  assert.ok(long.some((line) => line.includes("/END")), "a long folder wraps, its end shown");
  assert.ok(wide.some((line) => /1\. Session 1.*│ Folder +\/home\/u\/project-1/.test(line)));
  assert.ok(wide.some((line) => line.includes("› now the ^[[31mbuild")));
  const hidden = render(items(3), {
    columns: 120,
    lines: 12,
    preview,
    state: { ...initialState(), preview: false },
  });
  assert.ok(!hidden.some((line) => line.includes("│")));
  const narrow = render(items(3), { columns: 60, lines: 12, preview });
  assert.ok(!narrow.some((line) => line.includes("Folder")), "narrow: the list first");
  const toggled = applyKey(initialState(), { kind: "named", name: "tab" }, {
    rowCount: 3,
    pageSize: 10,
    actions: [],
    wide: false,
  }).state;
  const inPlace = render(items(3), { columns: 60, lines: 12, preview, state: toggled });
  assert.match(inPlace[1], /Folder +\/home\/u\/project-1/);
  assert.ok(!inPlace.some((line) => /\d\. Session/.test(line)));
});

Deno.test("keys to state: typing filters, Backspace and Ctrl-U edit, Esc, Ctrl-C, Ctrl-D quit", () => {
  const context = {
    rowCount: 3,
    pageSize: 5,
    actions: [{ key: "e", label: "edit", name: "edit" }],
    wide: true,
  };
  let { state, command } = applyKey(initialState(), { kind: "text", text: "ab" }, context);
  assert.equal(state.query, "ab");
  assert.equal(command.type, "filter");
  ({ state } = applyKey(state, { kind: "named", name: "backspace" }, context));
  assert.equal(state.query, "a");
  assert.equal(applyKey(state, { kind: "ctrl", letter: "d" }, context).command.type, "none");
  assert.equal(applyKey(state, { kind: "ctrl", letter: "u" }, context).state.query, "");
  assert.equal(
    applyKey(initialState(), { kind: "ctrl", letter: "d" }, context).command.type,
    "quit",
  );
  assert.equal(applyKey(state, { kind: "ctrl", letter: "c" }, context).command.type, "quit");
  assert.equal(applyKey(state, { kind: "named", name: "escape" }, context).command.type, "quit");
  assert.equal(applyKey(state, { kind: "named", name: "enter" }, context).command.type, "resume");
  assert.deepEqual(applyKey(state, { kind: "ctrl", letter: "e" }, context).command, {
    type: "action",
    name: "edit",
  });
  const emptyList = { ...context, rowCount: 0 };
  assert.equal(applyKey(state, { kind: "named", name: "enter" }, emptyList).command.type, "create");
  const nothingTyped = applyKey(initialState(), { kind: "named", name: "enter" }, emptyList);
  assert.equal(nothingTyped.command.type, "none");
});

Deno.test("render: the footer names every key on two lines when one is too narrow", () => {
  const actions = "rxaoygetv".split("").map((key) => ({ key, label: `action ${key}`, name: key }));
  const screen = render(items(30), { columns: 80, lines: 20, actions });
  const footer = screen.slice(-2).join(" ");
  for (const key of "RXAOYGETV") assert.ok(footer.includes(`^${key} action`), footer);
  assert.match(screen[17], /\d+\. Session/, "the list ends above the footer");
  const short = render(items(30), { columns: 80, lines: 10, actions });
  assert.match(short[9], /…$|…\s*$/, "one line, cut, on a short screen");
  assert.match(short[8], /Session/);
});

Deno.test("render: the preview shows the words that matched, which a narrow row has no room for", () => {
  const list = items(2);
  const content = new Map([["guid-2", "we fixed the \u0001rate limit\u0002 bug"]]);
  const state = { ...initialState(), query: "rate", cursor: 0, previewOnly: true };
  const input = {
    state,
    rows: filterItems(list, "rate", content),
    total: 2,
    columns: 40,
    lines: 10,
    colour: false,
    actions: [],
  };
  const narrowList = renderPicker({ ...input, state: { ...state, previewOnly: false } });
  assert.ok(!narrowList.some((line) => line.includes("rate limit")), "no room on the row");
  const inPlace = renderPicker(input);
  assert.match(inPlace[1], /^ Said we fixed the rate limit bug/);
});
