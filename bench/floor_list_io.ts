/**
 * A reference for bench/startup_bench.ts and bench/find.ts: the floor plus
 * only the file system work `list --json` cannot skip over 1,000 sessions,
 * printing the same JSON document, with as little JavaScript as possible:
 * read sessions.txt, look at the running claudes' folder, list every project
 * folder (a session is missing only when no folder has it), stat each
 * transcript for its size and date, print. No registry parsing rules, no
 * realpath, no error handling: what is left of list --json's time above this
 * is claudecm's own code.
 *
 * @module
 */

const home = Deno.env.get("HOME") ?? "";
const claude = Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`;
const root = `${claude}/projects`;
const rows = Deno.readTextFileSync(`${home}/.claudecm/sessions.txt`).split("\n");
try {
  Deno.readDirSync(`${claude}/sessions`);
} catch {
  // No claude running.
}
const folderOf = new Map<string, string>();
for (const folder of Deno.readDirSync(root)) {
  for (const entry of Deno.readDirSync(`${root}/${folder.name}`)) {
    folderOf.set(entry.name, `${root}/${folder.name}`);
  }
}
const sessions = rows.filter((row) => row !== "").map((row, index) => {
  const [guid, dir, desc, tokens] = row.split("|");
  const folder = folderOf.get(`${guid}.jsonl`) ?? `${root}/${dir.replace(/[^A-Za-z0-9]/g, "-")}`;
  const transcript = `${folder}/${guid}.jsonl`;
  const info = folderOf.has(`${guid}.jsonl`) ? Deno.statSync(transcript) : null;
  return {
    number: index + 1,
    guid,
    dir,
    desc,
    tokens: tokens === "" ? null : Number(tokens),
    archived: false,
    status: info === null ? "missing" : "ok",
    problem: null,
    transcript,
    sizeBytes: info?.size ?? null,
    lastActivity: info?.mtime?.toISOString() ?? null,
    dateIsFallback: false,
    live: false,
  };
});
console.log(JSON.stringify({ sessions, archived: [], malformedLines: [] }, null, 2));
