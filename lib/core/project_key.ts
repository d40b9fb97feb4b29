/**
 * Claude Code's project key: the folder name under `<claude root>/projects/`
 * that holds a directory's transcripts. Every path-to-key conversion in
 * claudecm goes through {@linkcode projectKey}; an inline variation is a bug
 * (spec section 6).
 *
 * @module
 */

import { basename, dirname, join } from "./path.ts";

/** Keys longer than this are cut and suffixed with a hash, as Claude Code does. */
export const MAX_KEY_LENGTH = 200;

/**
 * Encode an already-resolved path exactly as Claude Code does: every UTF-16
 * unit outside `[a-zA-Z0-9]` becomes `-`; a result over 200 units is cut to
 * 200 and suffixed with `-` and the base-36 Java string hash of the path.
 */
export function encodeProjectKey(path: string): string {
  const encoded = path.replace(/[^a-zA-Z0-9]/g, "-");
  if (encoded.length <= MAX_KEY_LENGTH) return encoded;
  return `${encoded.slice(0, MAX_KEY_LENGTH)}-${Math.abs(javaStringHash(path)).toString(36)}`;
}

/**
 * The project key of a directory. Claude Code keys on the realpath of its cwd,
 * so symlinks are resolved first; a directory that no longer exists is keyed
 * on its nearest existing parent's realpath and the rest as given (see
 * {@linkcode resolveRealPath}).
 */
export function projectKey(dir: string): string {
  return encodeProjectKey(resolveRealPath(dir));
}

/**
 * The realpath of `dir`. A folder that is gone (moved, renamed) resolves as
 * claude saw it while it was there: its nearest existing parent's realpath
 * (a symlinked parent still resolves) with the rest as given; `dir` itself
 * when nothing on its way can be resolved.
 */
export function resolveRealPath(dir: string): string {
  const rest: string[] = [];
  for (let current = dir;;) {
    try {
      return rest.length === 0
        ? Deno.realPathSync(current)
        : join(Deno.realPathSync(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return dir;
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

/** Java's `String.hashCode`, over UTF-16 units, wrapped to a signed 32-bit int. */
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  }
  return hash;
}
