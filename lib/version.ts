/**
 * The claudecm version, read from package.json so it has one source.
 *
 * @module
 */

import packageJson from "../package.json" with { type: "json" };

/** The version `claudecm --version` prints. */
export const VERSION: string = packageJson.version;

/** The program's own options that ask for the version (lib/cli/parse_args.ts, legacy.ts). */
export const VERSION_FLAGS: readonly string[] = ["--version", "-V"];

/**
 * Every way to ask for the version, alone on the command line: main.ts
 * answers these before loading anything else, and lib/cli takes the same
 * words ({@linkcode VERSION_FLAGS} as the program's options, `version` as a
 * command, `-v` from the old grammar, where claude's own `-v` was passed on).
 */
export const VERSION_ARGS: readonly string[] = [...VERSION_FLAGS, "-v", "version"];
