/**
 * A directory on another file system than the test's temp dirs, for writes
 * through a symlink that a rename must not cross (/dev/shm, a tmpfs, on Linux).
 *
 * @module
 */

const CANDIDATE = "/dev/shm";

/** Whether {@linkcode makeTempDirOnOtherFileSystem} can give a directory here. */
export function otherFileSystemAvailable(): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    const tmp = Deno.makeTempDirSync();
    try {
      return Deno.statSync(CANDIDATE).dev !== Deno.statSync(tmp).dev;
    } finally {
      Deno.removeSync(tmp);
    }
  } catch {
    return false;
  }
}

/** A new temporary directory on the other file system; the caller removes it. */
export function makeTempDirOnOtherFileSystem(): string {
  return Deno.makeTempDirSync({ dir: CANDIDATE, prefix: "claudecm-test-" });
}
