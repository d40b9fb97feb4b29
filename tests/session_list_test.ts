import assert from "node:assert/strict";
import type { SessionInfo } from "../lib/core/session_info.ts";
import { displayWidth, truncateToWidth } from "../lib/ui/text_width.ts";
import { renderSessionTable, type SessionRow } from "../lib/ui/session_list.ts";

const INFO: SessionInfo = {
  status: "ok",
  transcriptPath: "/x.jsonl",
  sizeBytes: 2048,
  size: "2 KB",
  date: new Date(2026, 10, 30),
  dateText: "Nov 30",
  dateIsFallback: false,
  tokensText: "155K tok",
  folderGone: false,
} as SessionInfo;

Deno.test("displayWidth: wide and fullwidth characters and emoji take two columns, combining marks none", () => {
  const table: Array<[string, number]> = [
    ["plain", 5],
    ["日本語", 6],
    ["한국어", 6],
    ["ＡＢ", 4],
    ["🚀", 2],
    ["👩‍💻", 2],
    ["🇩🇪", 2],
    ["❤️", 2],
    ["e\u0301", 1],
    ["Café", 4],
    ["©", 1],
  ];
  for (const [text, width] of table) assert.equal(displayWidth(text), width, text);
});

Deno.test("the session table lines its columns up whatever script or emoji a name holds", () => {
  const descs = [
    "Plain name",
    "日本語のプロジェクト",
    "Rocket 🚀 launch",
    "Cafe\u0301 work",
    "👩‍💻 pairing",
  ];
  const rows = descs.map((desc, i) => ({
    session: { guid: `g${i}`, dir: `/p${i}`, desc, tokens: "155000" },
    number: i + 1,
    info: INFO,
  }));
  const lines = renderSessionTable(rows).lines.map((line) => line.text);
  const sizeColumn = lines.map((text) => displayWidth(text.slice(0, text.indexOf(" 2 KB"))));
  assert.equal(new Set(sizeColumn).size, 1, lines.join("\n"));
});

const LONG = "A very long session name that goes on ".repeat(3).trim();

/** Rows numbered 1, 2, ... as the whole list numbers them. */
function table(
  rows: Array<Omit<SessionRow, "number">>,
  options: Parameters<typeof renderSessionTable>[1] = {},
): ReturnType<typeof renderSessionTable> {
  return renderSessionTable(rows.map((r, i) => ({ ...r, number: i + 1 })), options);
}

function row(
  desc: string,
  info: Partial<SessionInfo> = {},
  live = false,
): Omit<SessionRow, "number"> {
  return {
    session: { guid: crypto.randomUUID(), dir: "/home/me/project", desc, tokens: "155000" },
    info: { ...INFO, ...info },
    live,
  };
}

/** Columns a line takes on a terminal (the table holds no tab). */
function columnsOf(line: string): number {
  assert.ok(!line.includes("\t"), `no tab: ${line}`);
  return displayWidth(line);
}

Deno.test("truncateToWidth cuts by display width with an ellipsis, never inside a character", () => {
  assert.equal(truncateToWidth("short", 10), "short");
  assert.equal(truncateToWidth("abcdefghij", 5), "abcd…");
  assert.equal(truncateToWidth("日本語のプロジェクト", 7), "日本語…");
  assert.equal(truncateToWidth("🚀🚀🚀🚀", 6), "🚀🚀…");
});

Deno.test("at 80 columns one long name is cut, and no row wraps", () => {
  const rows = [
    row("Short"),
    row(LONG),
    row("日本語のプロジェクト".repeat(4)),
    row("Live", {}, true),
  ];
  const rendered = table(rows, { maxWidth: 80 });
  for (const line of rendered.lines) assert.ok(columnsOf(line.text) <= 80, line.text);
  assert.match(rendered.lines[1].text, /…/);
  assert.match(rendered.lines[3].text, /Live \[live\]/);
  assert.ok(rendered.legend.some((entry) => entry.startsWith("… =")));
  const whole = table(rows);
  assert.ok(whole.lines[1].text.includes(LONG), "without a width, names stay whole");
  assert.ok(!whole.legend.some((entry) => entry.startsWith("… =")));
});

Deno.test("a name holding control characters is measured as shown (^G), cut and lined up", () => {
  const rows = [row("Short"), row(`bell${"\x07".repeat(40)}end`), row("Third")];
  const rendered = table(rows, { maxWidth: 80 });
  for (const line of rendered.lines) {
    assert.ok(columnsOf(line.text) <= 80, line.text);
    assert.ok(!line.text.includes("\x07"), "shown as ^G, as the output would show it");
  }
  assert.match(rendered.lines[1].text, /bell\^G\^G.*…/);
  const sizeAt = (text: string) => text.indexOf("2 KB");
  assert.equal(sizeAt(rendered.lines[0].text), sizeAt(rendered.lines[1].text), "columns line up");
});

Deno.test("the legend explains every mark the rows show, and only those", () => {
  const rendered = table([
    row("Live", {}, true),
    row("Gone", { status: "missing", size: "(missing)", dateText: "Nov 2*", dateIsFallback: true }),
    row("Locked", { status: "unreadable", size: "(no access)" }),
    row("New", { tokensText: "--" }),
  ]);
  const legend = rendered.legend.join("\n");
  for (const mark of ["[live]", "(missing)", "(no access)", "date*", "--"]) {
    assert.ok(legend.includes(`${mark} = `), `${mark} in:\n${legend}`);
  }
  assert.deepEqual(table([row("Plain")]).legend, []);
});

Deno.test("one header line names the columns, which line up with every row, with no tab", () => {
  const rendered = table([
    row("Short", { dateText: "Mar 13, 2025" }),
    row("A longer name", { size: "(missing)", status: "missing", dateText: "--" }),
    row("Third"),
  ]);
  const { header } = rendered;
  assert.match(header, /^ {2}# +Name +Size +Tokens +Last used +Folder$/);
  const lines = [header, ...rendered.lines.map((line) => line.text)];
  for (const line of lines) assert.ok(!line.includes("\t"), line);
  // Each column starts where its header does; size and tokens end where theirs do.
  const folderAt = header.indexOf("Folder");
  for (const line of rendered.lines) assert.equal(line.text.indexOf("/home/me/project"), folderAt);
  const sizeEnd = header.indexOf("Size") + 4;
  assert.equal(rendered.lines[0].text.indexOf("2 KB") + 4, sizeEnd);
  assert.equal(rendered.lines[1].text.indexOf("(missing)") + 9, sizeEnd);
  const dateAt = header.indexOf("Last used");
  assert.equal(rendered.lines[0].text.indexOf("Mar 13, 2025"), dateAt);
  assert.equal(rendered.lines[2].text.indexOf("Nov 30"), dateAt);
});

Deno.test("a row whose folder is gone is marked after its folder, and the legend says what to do", () => {
  const gone = row("Moved away", { folderGone: true });
  const rendered = table([row("Here"), gone]);
  assert.match(rendered.lines[1].text, /\/home\/me\/project \(folder gone: claudecm move\)$/);
  assert.doesNotMatch(rendered.lines[0].text, /folder gone/);
  assert.ok(
    rendered.legend.some((entry) =>
      entry.startsWith("(folder gone: claudecm move) = ") && entry.includes("claudecm move OLD NEW")
    ),
    rendered.legend.join("\n"),
  );
  assert.ok(!table([row("Here")]).legend.some((entry) => entry.includes("folder gone")));
  // Cut to a terminal's width, the mark still fits.
  const narrow = table([row(LONG), gone], { maxWidth: 110 });
  for (const line of narrow.lines) assert.ok(columnsOf(line.text) <= 110, line.text);
  assert.match(narrow.lines[0].text, /…/);
});
