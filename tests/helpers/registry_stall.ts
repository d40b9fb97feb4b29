/**
 * A registry writer that stalls while it holds the lock: it reads the
 * registry, signals `<readyFile>`, sleeps `<stallMs>` (a slow disk, a
 * suspended process), then renames session `<guid>` to `<name>`. Run as a
 * separate process with HOME set: `registry_stall.ts <guid> <name> <readyFile> <stallMs>`.
 *
 * @module
 */

import { resolvePaths } from "../../lib/core/paths.ts";
import { renameSession } from "../../lib/core/registry_ops.ts";
import { updateRegistry } from "../../lib/store/registry_store.ts";

const [guid, name, readyFile, stallMs] = Deno.args;
const paths = resolvePaths((variable) => Deno.env.get(variable), Deno.build.os);
let stalled = false;
await updateRegistry(paths, (registry) => {
  if (!stalled) {
    stalled = true;
    Deno.writeTextFileSync(readyFile, "read");
    // A synchronous stall: the lock stays held and the read registry stays in hand.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(stallMs));
  }
  return renameSession(registry, guid, name);
});
