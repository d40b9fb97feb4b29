/**
 * Whole-file writes that a crash cannot leave half done: write a temporary
 * file beside the target, flush it to disk, then rename it over the target.
 *
 * @module
 */

/** Options for {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** The temporary file; defaults to `<path>.tmp-<pid>`. */
  tmpPath?: string;
}

/**
 * Replace `path` with `content` atomically. Readers see the old file or the
 * new one, never a mix. On failure the temporary file is removed and the
 * target is untouched.
 */
export function writeFileAtomic(
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): void {
  const tmpPath = options.tmpPath ?? `${path}.tmp-${Deno.pid}`;
  try {
    const file = Deno.openSync(tmpPath, { write: true, create: true, truncate: true });
    try {
      const bytes = new TextEncoder().encode(content);
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
      file.syncSync();
    } finally {
      file.close();
    }
    Deno.renameSync(tmpPath, path);
  } catch (error) {
    try {
      Deno.removeSync(tmpPath);
    } catch {
      // The temporary file was never created or is already gone.
    }
    throw error;
  }
}
