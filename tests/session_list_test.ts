import assert from "node:assert/strict";
import type { SessionInfo } from "../lib/core/session_info.ts";
import { displayWidth } from "../lib/ui/text_width.ts";
import { renderSessionTable } from "../lib/ui/session_list.ts";

const INFO: SessionInfo = {
  status: "ok",
  transcriptPath: "/x.jsonl",
  sizeBytes: 2048,
  size: "2 KB",
  date: new Date(2026, 10, 30),
  dateText: "Nov 30",
  dateIsFallback: false,
  tokensText: "155K tok",
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
    info: INFO,
  }));
  const lines = renderSessionTable(rows).lines.map((line) => line.text);
  const sizeColumn = lines.map((text) => displayWidth(text.slice(0, text.indexOf(" 2 KB"))));
  assert.equal(new Set(sizeColumn).size, 1, lines.join("\n"));
});
