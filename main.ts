/**
 * claudecm entry point: `--version` answers here (claudecm's version at
 * once, then claude's), anything else runs a command through
 * lib/cli/run.ts (which maps errors to a one-line message and an exit code).
 *
 * claudecm starts many times a day, so this file imports only the version.
 * The rest loads through a computed specifier: by default, at start-up Deno
 * reads ahead every import() it can resolve from the source, which for
 * lib/cli/run.ts is the whole program (about a third of a bare start,
 * measured). deno.json turns that read-ahead off (`lazy-dynamic-imports`)
 * for runs that find it; the computed specifier keeps the start lean for
 * runs that do not. Its types still come from `typeof import(...)`, and
 * scripts/compile_all.ts passes every lib/ module to `deno compile
 * --include` so the binary embeds them.
 *
 * @module
 */

import { VERSION, VERSION_ARGS } from "./lib/version.ts";

/** The module that runs a command: see above for why it is not a literal import(). */
export const CLI_MODULE = "./lib/cli/run.ts";
/** The module that asks claude its version, loaded the same way. */
export const CLAUDE_VERSION_MODULE = "./lib/app/version/claude_version.ts";
/** The one place the OS is asked (lib/platform/os.ts), loaded with it, after the first line. */
export const HOST_OS_MODULE = "./lib/platform/os.ts";

if (import.meta.main) {
  const args = Deno.args;
  // The same bytes lib/cli prints for --version, without loading it.
  if (args.length === 1 && VERSION_ARGS.includes(args[0])) {
    const encoder = new TextEncoder();
    Deno.stdout.writeSync(encoder.encode(`${VERSION}\n`));
    const [{ claudeVersionLine }, { hostOs }]: [
      typeof import("./lib/app/version/claude_version.ts"),
      typeof import("./lib/platform/os.ts"),
    ] = await Promise.all([import(CLAUDE_VERSION_MODULE), import(HOST_OS_MODULE)]);
    const line = await claudeVersionLine(Deno.env.toObject(), { os: hostOs });
    Deno.stdout.writeSync(encoder.encode(`${line}\n`));
  } else {
    const { runMain }: typeof import("./lib/cli/run.ts") = await import(CLI_MODULE);
    Deno.exit(await runMain(args));
  }
}
