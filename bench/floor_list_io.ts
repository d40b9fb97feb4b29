/**
 * A reference for bench/startup_bench.ts: the floor plus only the file
 * system work `list --json` cannot skip over 1,000 sessions, with as little
 * JavaScript as possible: read sessions.txt, list every project folder (a
 * session is missing only when no folder has it), stat each transcript for
 * its size and date, print JSON. No registry parsing rules, no project keys,
 * no error handling: what is left of list --json's time above this is
 * claudecm's own code.
 *
 * @module
 */

const home = Deno.env.get("HOME") ?? "";
const root = `${Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`}/projects`;
const rows = Deno.readTextFileSync(`${home}/.claudecm/sessions.txt`).split("\n");
const folderOf = new Map<string, string>();
for (const folder of Deno.readDirSync(root)) {
  for (const entry of Deno.readDirSync(`${root}/${folder.name}`)) {
    folderOf.set(entry.name, `${root}/${folder.name}`);
  }
}
const listed = rows.filter((row) => row !== "").map((row) => {
  const [guid, dir, desc] = row.split("|");
  const folder = folderOf.get(`${guid}.jsonl`);
  const info = folder === undefined ? null : Deno.statSync(`${folder}/${guid}.jsonl`);
  return { guid, dir, desc, size: info?.size ?? null, date: info?.mtime?.toISOString() ?? null };
});
console.log(JSON.stringify(listed, null, 2));
