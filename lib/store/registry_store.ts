/**
 * Reading and writing `sessions.txt`. {@linkcode updateRegistry} is the one
 * registry writer: lock, read, change, write temp, rename, unlock (spec 5.1).
 *
 * @module
 */

import { decodeLossless, encodeLossless } from "../core/lossless_text.ts";
import type { Paths } from "../core/paths.ts";
import { parseRegistry, type Registry, serializeRegistry } from "../core/registry.ts";
import { type LockOptions, withFileLock } from "./lock.ts";
import { writeFileAtomic } from "./atomic_write.ts";

/** Read the registry without the lock (spec 14.1: renames make reads safe). */
export function readRegistry(paths: Paths): Registry {
  return parseRegistry(readRegistryText(paths));
}

/**
 * Apply `change` to the registry as it is on disk under the lock and write the
 * result atomically. Returns the registry as written. When `change` throws,
 * nothing is written; when it leaves the file's content as it was, the file
 * is not rewritten at all.
 */
export async function updateRegistry(
  paths: Paths,
  change: (registry: Registry) => Registry,
  options: Pick<LockOptions, "onTimeout" | "timeoutMs"> = {},
): Promise<Registry> {
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  return await withFileLock(paths.lockFile, ({ held }) => {
    const before = readRegistryText(paths);
    const updated = change(parseRegistry(before));
    const after = serializeRegistry(updated);
    if (after === before) return updated;
    // Spec 3's sessions.txt.tmp, beside the real file when sessions.txt is a link.
    // Unlocked writers must not share a temp file with the lock holder.
    const tmpSuffix = held ? ".tmp" : `.tmp.${Deno.pid}`;
    writeFileAtomic(paths.registryFile, encodeLossless(after), { tmpSuffix });
    return updated;
  }, options);
}

/** The file's text, decoded so that bytes which are not UTF-8 survive a rewrite unchanged. */
function readRegistryText(paths: Paths): string {
  try {
    return decodeLossless(Deno.readFileSync(paths.registryFile));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}
