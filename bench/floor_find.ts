/**
 * A reference for bench/find.ts: the least work a `find` on an up-to-date
 * index cannot skip, with as little JavaScript as possible. Open the index
 * (node:sqlite), read what tells a change from its files table, list and
 * stat every transcript, count the matches per session, take the 20 best
 * sessions' 3 latest matches and read each one's line back for its snippet,
 * print JSON. No ranking rules, no error handling, no registry: what is left
 * of find's time above this is claudecm's own code.
 *
 * Usage: deno run -A bench/floor_find.ts WORD (HOME names the history)
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";

const home = Deno.env.get("HOME") ?? "";
const claude = Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`;
const root = `${claude}/projects`;
const db = new DatabaseSync(`${home}/.claudecm/find-index.db`);
const known = new Map<string, string>();
for (const row of db.prepare("SELECT path, identity, size, mtime_ms FROM files").all()) {
  known.set(String(row.path), `${row.identity} ${row.size} ${row.mtime_ms}`);
}
let changed = 0;
for (const folder of Deno.readDirSync(root)) {
  for (const entry of Deno.readDirSync(`${root}/${folder.name}`)) {
    const path = `${root}/${folder.name}/${entry.name}`;
    const info = Deno.statSync(path);
    const now = `${info.dev}:${info.ino} ${info.size} ${info.mtime?.getTime()}`;
    if (known.get(path) !== now) changed++;
  }
}
const sessions = db.prepare(
  `SELECT f.session_id AS session, count(*) AS n FROM docs_fts JOIN files f
   ON f.id = (docs_fts.rowid >> 32) WHERE docs_fts MATCH ? GROUP BY f.session_id
   ORDER BY n DESC LIMIT 20`,
).all(Deno.args[0]);
const filesOf = db.prepare("SELECT id, path FROM files WHERE session_id = ?");
// A rowid range is one file's pieces (the id's high bits name the file): FTS5 walks it backwards.
const latest = db.prepare(
  `SELECT d.line_at AS at, d.line_length AS length FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid
   WHERE docs_fts MATCH ? AND docs_fts.rowid BETWEEN ? AND ? ORDER BY docs_fts.rowid DESC LIMIT 3`,
);
const results = sessions.map((session) => ({
  session: String(session.session),
  count: Number(session.n),
  snippets: filesOf.all(String(session.session)).flatMap((file) => {
    const first = BigInt(Number(file.id)) << 32n;
    return latest.all(Deno.args[0], first, first + 0xffffffffn).map((hit) => {
      const transcript = Deno.openSync(String(file.path));
      transcript.seekSync(Number(hit.at), Deno.SeekMode.Start);
      const bytes = new Uint8Array(Number(hit.length));
      transcript.readSync(bytes);
      transcript.close();
      return JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)).message).slice(0, 200);
    });
  }).slice(0, 3),
}));
console.log(JSON.stringify({ changed, results }, null, 2));
