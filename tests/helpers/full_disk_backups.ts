/**
 * Registry backups on a full disk, run inside a mount namespace whose
 * `~/.claudecm/backup` is a small tmpfs (see `tests/backups_test.ts`): 20
 * good backups, then the disk filled, three backups of new states that
 * cannot be written, the disk freed, one more. Prints the backup folder as
 * JSON (name, size) and each failed run's error code.
 *
 * @module
 */

import { resolvePaths } from "../../lib/core/paths.ts";
import { backupRegistry } from "../../lib/store/backups.ts";

const paths = resolvePaths((name) => Deno.env.get(name), Deno.build.os);
const at = (minute: number) => new Date(2026, 10, 30, 12, minute, 0);
const state = (n: number) => Deno.writeTextFileSync(paths.registryFile, `state ${n}\n`);

for (let n = 0; n < 20; n++) {
  state(n);
  backupRegistry(paths, at(n));
}
const filler = paths.path.join(paths.backupDir, "filler");
const file = Deno.openSync(filler, { write: true, create: true });
try {
  const block = new Uint8Array(4096);
  while (true) file.writeSync(block);
} catch {
  // Full.
} finally {
  file.close();
}
const failures: string[] = [];
for (let n = 20; n < 23; n++) {
  state(n);
  const error = backupRegistry(paths, at(n));
  failures.push(error instanceof Error ? (error as { code?: string }).code ?? error.name : "none");
}
Deno.removeSync(filler);
state(23);
backupRegistry(paths, at(23));
const files = [...Deno.readDirSync(paths.backupDir)].map((entry) => ({
  name: entry.name,
  size: Deno.statSync(paths.path.join(paths.backupDir, entry.name)).size,
})).sort((a, b) => a.name.localeCompare(b.name));
console.log(JSON.stringify({ failures, files }));
