/**
 * Whether a program a test drives (tmux, zsh, fish, groff, chromium) is
 * installed. `scripts/install_test_tools.sh` installs them in CI, so there a
 * missing one fails the test run instead of skipping it quietly.
 *
 * @module
 */

const known = new Map<string, boolean>();

/**
 * Whether `program` runs (asked with `versionFlag`, `--version` by default). Outside CI, and on
 * Windows (none of these is there), a missing one is said once and its tests skip.
 */
export function toolAvailable(program: string, versionFlag = "--version"): boolean {
  let found = known.get(program);
  if (found === undefined) {
    try {
      found = new Deno.Command(program, { args: [versionFlag], stdout: "null", stderr: "null" })
        .outputSync().success;
    } catch {
      found = false;
    }
    known.set(program, found);
    if (!found && Deno.env.get("CI") === "true" && Deno.build.os !== "windows") {
      throw new Error(`${program} is not installed: scripts/install_test_tools.sh installs it`);
    }
    if (!found) console.log(`${program} is not installed: the tests that need it are skipped`);
  }
  return found;
}
