/**
 * A reference for bench/find.ts: `find --no-index`'s least work on one
 * thread, reading every transcript under the projects folder once into one
 * reused buffer, searching nothing. Read speed from the page cache bounds
 * a scan written in JavaScript; ripgrep, the row's reference, also searches
 * with SIMD on every core.
 *
 * @module
 */

const home = Deno.env.get("HOME") ?? "";
const root = `${Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`}/projects`;
const buffer = new Uint8Array(4 * 1024 * 1024);
let bytes = 0;
for (const folder of Deno.readDirSync(root)) {
  for (const entry of Deno.readDirSync(`${root}/${folder.name}`)) {
    const file = Deno.openSync(`${root}/${folder.name}/${entry.name}`);
    for (let count = file.readSync(buffer); count; count = file.readSync(buffer)) bytes += count;
    file.close();
  }
}
console.log(bytes);
