/**
 * A registry writer for the concurrency tests: performs N read-modify-write
 * increments of one session's token count through the real lock. Run as a
 * separate process: `registry_hammer.ts <guid> <count> [timeoutMs]` with HOME
 * set. Without `timeoutMs` a lock timeout ends it (exit 3); with it, the lock
 * is waited for that long and the write goes ahead without it, as a user's
 * claudecm does after the spec's 10 s.
 *
 * @module
 */

import { resolvePaths } from "../../lib/core/paths.ts";
import { findSession } from "../../lib/core/registry.ts";
import { setTokens } from "../../lib/core/registry_ops.ts";
import { updateRegistry } from "../../lib/store/registry_store.ts";

const [guid, countText, timeoutText] = Deno.args;
const paths = resolvePaths((name) => Deno.env.get(name), Deno.build.os);
for (let i = 0; i < Number(countText); i++) {
  await updateRegistry(paths, (registry) => {
    const current = Number(findSession(registry, guid)?.tokens || "0");
    return setTokens(registry, guid, current + 1);
  }, {
    timeoutMs: timeoutText === undefined ? undefined : Number(timeoutText),
    onTimeout: () => {
      if (timeoutText !== undefined) return;
      console.error("lock timed out");
      Deno.exit(3);
    },
  });
}
