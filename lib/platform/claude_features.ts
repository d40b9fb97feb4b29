/**
 * What the installed claude accepts, read from `claude --help` and cached
 * per `claude --version` output in `~/.claudecm/claude-features.json`, so
 * the help text is read once per claude upgrade, not per launch. A fresh
 * launch passes `--session-id` only when it is supported (DESIGN.md 5.1) and
 * `-n` wherever it is (5.3).
 *
 * @module
 */

import { dirname } from "../core/path.ts";
import { writeFileAtomic } from "../store/atomic_write.ts";
import { removeDeadWritersTemps } from "../store/stale_temps.ts";
import { readSettingsText } from "../core/fs_checks.ts";

/** The options claudecm's flows depend on. */
export interface ClaudeFeatures {
  /** `--session-id <uuid>`: claudecm can pick a fresh session's id. */
  sessionId: boolean;
  /** `-n, --name <name>`: the session gets a display name. */
  name: boolean;
  /** `--fork-session`. */
  forkSession: boolean;
  /** `--no-session-persistence` (with `-p`). */
  noSessionPersistence: boolean;
}

/** How to ask claude for its version and help. */
export interface FeatureProbe {
  /** `claude --version` output, trimmed; null when it failed. */
  version(): Promise<string | null>;
  /** `claude --help` output. */
  help(): Promise<string>;
}

/** Most versions kept in the cache file; older entries are dropped. */
const MAX_CACHED_VERSIONS = 10;

/** Which features a help text lists (option lines only, not prose mentioning them). */
export function parseClaudeHelp(help: string): ClaudeFeatures {
  const has = (pattern: RegExp) => pattern.test(help);
  return {
    sessionId: has(/^ {2}--session-id\b/m),
    name: has(/^ {2}(?:-n, )?--name\b/m),
    forkSession: has(/^ {2}--fork-session\b/m),
    noSessionPersistence: has(/^ {2}--no-session-persistence\b/m),
  };
}

/**
 * The installed claude's features: from the cache when this version is in
 * it, else from its help (then cached, unless `cacheFile` is null, as for
 * read-only commands). A cache that cannot be read or written is ignored:
 * it only saves a `claude --help` run.
 */
export async function detectClaudeFeatures(
  probe: FeatureProbe,
  cacheFile: string | null,
): Promise<ClaudeFeatures> {
  const version = await probe.version();
  // A run killed while it wrote the cache leaves its temporary file: the next writer removes it.
  if (cacheFile !== null) removeDeadWritersTemps(dirname(cacheFile), { of: cacheFile });
  const cache = cacheFile === null ? {} : readCache(cacheFile);
  if (version !== null && cache[version] !== undefined) return cache[version];
  const features = parseClaudeHelp(await probe.help());
  if (version !== null && cacheFile !== null) {
    const kept = Object.entries(cache).filter(([key]) => key !== version).slice(
      -(MAX_CACHED_VERSIONS - 1),
    );
    const next = Object.fromEntries([...kept, [version, features]]);
    try {
      Deno.mkdirSync(dirname(cacheFile), { recursive: true });
      writeFileAtomic(cacheFile, JSON.stringify(next, null, 2) + "\n");
    } catch {
      // Not cached this time; the next launch reads the help again.
    }
  }
  return features;
}

function readCache(file: string): Record<string, ClaudeFeatures> {
  try {
    const parsed = JSON.parse(readSettingsText(file));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const valid = Object.entries(parsed).filter(([, value]) => isFeatures(value));
    return Object.fromEntries(valid) as Record<string, ClaudeFeatures>;
  } catch {
    return {};
  }
}

function isFeatures(value: unknown): value is ClaudeFeatures {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["sessionId", "name", "forkSession", "noSessionPersistence"].every((key) =>
    typeof record[key] === "boolean"
  );
}
