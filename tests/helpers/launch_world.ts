/**
 * A fake world ready for launch tests: machine name saved (so bootstrap
 * asks nothing), registry helpers, and a way to run claudecm in the world's
 * project directory with piped answers.
 *
 * @module
 */

import { type ArgvEntry, createFakeWorld, type FakeWorld } from "./fakes.ts";
import { runClaudecm, type RunResult } from "./run_cli.ts";
import { join } from "../../lib/core/path.ts";
import { type Paths, resolvePaths } from "../../lib/core/paths.ts";
import { mainSessions, type Session } from "../../lib/core/registry.ts";
import { readRegistry } from "../../lib/store/registry_store.ts";

/** A fake world plus what launch tests keep asking of it. */
export interface LaunchWorld extends FakeWorld {
  paths: Paths;
  /** Main sessions in the registry now. */
  sessions(): Session[];
  /** Run claudecm in the project dir (or `cwd`) with `stdin` as the answers. */
  run(args: string[], options?: { stdin?: string; cwd?: string }): Promise<RunResult>;
  /** The fake claude's runs that were sessions, not `--version`/`--help` probes. */
  launches(): ArgvEntry[];
  /** The `--session-id` values claudecm passed to the fake claude, in order. */
  sessionIdsPassed(): string[];
}

/** A fake world with the machine name `desk`. */
export function createLaunchWorld(): LaunchWorld {
  const world = createFakeWorld();
  const paths = resolvePaths((name) => world.env[name], Deno.build.os);
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(paths.machineNameFile, "desk\n");
  return {
    ...world,
    paths,
    sessions: () => mainSessions(readRegistry(paths)),
    run: (args, options = {}) =>
      runClaudecm(args, {
        env: world.env,
        cwd: options.cwd ?? world.project,
        stdin: options.stdin ?? "",
      }),
    launches: () => launchesOf(world),
    sessionIdsPassed: () =>
      launchesOf(world).flatMap(({ argv }) => {
        const at = argv.indexOf("--session-id");
        return at < 0 ? [] : [argv[at + 1]];
      }),
  };
}

function launchesOf(world: FakeWorld): ArgvEntry[] {
  return world.argv("claude").filter(({ argv }) => !["--version", "--help"].includes(argv[0]));
}

/**
 * Run `test` in a fresh launch world with no cmv (post-exit then skips
 * tokens, snapshot and trim, keeping menu tests about the menus), then clean up.
 */
export async function inWorldWithoutCmv(
  test: (world: LaunchWorld) => Promise<void>,
): Promise<void> {
  const world = createLaunchWorld();
  try {
    world.env.CLAUDECM_CMV = join(world.dir, "no-cmv-here");
    await test(world);
  } finally {
    world.cleanup();
  }
}

/** Another live claude (this test process stands in for it) is on session `guid`. */
export function openInAnotherWindow(world: LaunchWorld, guid: string): void {
  Deno.mkdirSync(world.paths.sessionsDir, { recursive: true });
  Deno.writeTextFileSync(
    join(world.paths.sessionsDir, `${Deno.pid}.json`),
    JSON.stringify({ pid: Deno.pid, sessionId: guid, cwd: world.project }),
  );
}

/**
 * From now on the world's claude runs `script` (Deno source, given claude's
 * arguments) for a session, and the fake claude for `--version` and
 * `--help`. POSIX only: the shim is a shell script.
 */
export function useClaudeScript(world: LaunchWorld, script: string): void {
  const source = `${world.dir}/claude_script.ts`;
  Deno.writeTextFileSync(source, script);
  const shim = `${world.dir}/claude-script`;
  Deno.writeTextFileSync(
    shim,
    `#!/bin/sh\ncase "$1" in --version|--help) exec "${world.env.CLAUDECM_CLAUDE}" "$@";; esac\n` +
      `exec "$FAKE_DENO" run -A --quiet --no-config "${source}" "$@"\n`,
  );
  Deno.chmodSync(shim, 0o755);
  world.env.CLAUDECM_CLAUDE = shim;
}

/** `import { projectKey }` for a claude script: where claude files a folder's sessions. */
export const PROJECT_KEY_IMPORT = `import { projectKey } from ${
  JSON.stringify(new URL("../../lib/core/project_key.ts", import.meta.url).href)
};\n`;
