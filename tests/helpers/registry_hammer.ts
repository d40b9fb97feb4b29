/**
 * A registry writer for the concurrency tests: performs N read-modify-write
 * increments of one session's token count through the real lock. Run as a
 * separate process: `registry_hammer.ts <guid> <count>` with HOME set.
 *
 * @module
 */

import { resolvePaths } from "../../lib/core/paths.ts";
import { findSession } from "../../lib/core/registry.ts";
import { setTokens } from "../../lib/core/registry_ops.ts";
import { updateRegistry } from "../../lib/store/registry_store.ts";

const [guid, countText] = Deno.args;
const paths = resolvePaths((name) => Deno.env.get(name), Deno.build.os);
for (let i = 0; i < Number(countText); i++) {
  await updateRegistry(paths, (registry) => {
    const current = Number(findSession(registry, guid)?.tokens || "0");
    return setTokens(registry, guid, current + 1);
  }, {
    onTimeout: () => {
      console.error("lock timed out");
      Deno.exit(3);
    },
  });
}
