/**
 * What tests need to mean the same on every OS: this OS's paths in
 * expectations and regexes, fixture files as paths (not `URL.pathname`,
 * which is `/C:/...` on Windows), and whether git is there to test with.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { sep } from "../../lib/core/path.ts";

/** Whether the tests run on Windows. */
export const ON_WINDOWS: boolean = Deno.build.os === "windows";

/** A double quote where file names may hold one; Windows forbids it, so a single one there. */
export const NAME_QUOTE: string = ON_WINDOWS ? "'" : '"';

/** `text` as a regex matching itself literally (a Windows path is full of backslashes). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `path` with this OS's separators written as `/`, for expectations written that way. */
export function slashed(path: string): string {
  return sep === "/" ? path : path.replaceAll(sep, "/");
}

/** The path of a file given relative to a module's URL (`import.meta.url`). */
export function pathFromUrl(relative: string, base: string | URL): string {
  return fileURLToPath(new URL(relative, base));
}

let git: boolean | undefined;

/** Whether git can be run here; tests that need it skip, with a note, when it cannot. */
export function gitAvailable(): boolean {
  if (git === undefined) {
    try {
      git = new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" })
        .outputSync().success;
    } catch {
      git = false;
    }
    if (!git) console.log("git is not installed: the tests that need it are skipped");
  }
  return git;
}

/**
 * Make a symlink at `path` to `target`, a file unless `type` says otherwise
 * (Windows must be told for a missing target). False, after saying so, where
 * no working link can be made: Windows without the privilege, and wine,
 * whose links `lstat` then cannot find; the test skips what needs one.
 */
export function symlinkIfSupported(
  target: string,
  path: string,
  type: "file" | "dir" = "file",
): boolean {
  try {
    Deno.symlinkSync(target, path, { type });
    if (Deno.lstatSync(path).isSymlink) return true;
  } catch (error) {
    if (!ON_WINDOWS) throw error;
  }
  console.log(`symlinks cannot be made here: the part of this test that needs ${path} is skipped`);
  return false;
}

/** `Deno.test` for a test that runs git: ignored, with a note, where git is not installed. */
export function gitTest(name: string, fn: () => void | Promise<void>): void {
  Deno.test({ name, ignore: !gitAvailable(), fn });
}
