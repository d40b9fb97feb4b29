/**
 * Reading and writing `sessions.txt`. {@linkcode updateRegistry} is the one
 * registry writer: lock, read, change, write temp, rename, unlock (spec 5.1).
 *
 * @module
 */

import type { Paths } from "../core/paths.ts";
import {
  emptyRegistry,
  parseRegistry,
  type Registry,
  serializeRegistry,
} from "../core/registry.ts";
import { type LockOptions, withFileLock } from "./lock.ts";
import { writeFileAtomic } from "./atomic_write.ts";

/** Read the registry without the lock (spec 14.1: renames make reads safe). */
export function readRegistry(paths: Paths): Registry {
  try {
    return parseRegistry(Deno.readTextFileSync(paths.registryFile));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return emptyRegistry();
    throw error;
  }
}

/**
 * Apply `change` to the registry as it is on disk under the lock and write the
 * result atomically. Returns the registry as written. When `change` throws,
 * nothing is written.
 */
export async function updateRegistry(
  paths: Paths,
  change: (registry: Registry) => Registry,
  options: Pick<LockOptions, "onTimeout" | "timeoutMs"> = {},
): Promise<Registry> {
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  return await withFileLock(paths.lockFile, ({ held }) => {
    const updated = change(readRegistry(paths));
    // Unlocked writers must not share a temp file with the lock holder.
    const tmpPath = held ? paths.registryTmpFile : `${paths.registryTmpFile}.${Deno.pid}`;
    writeFileAtomic(paths.registryFile, serializeRegistry(updated), { tmpPath });
    return updated;
  }, options);
}
