/**
 * The picker in a real terminal (tmux) for end-to-end tests: open it in a
 * launch world, wait for claudecm to end, and read which sessions the fake
 * claude was asked to resume.
 *
 * @module
 */

import { inWorldWithoutCmv, type LaunchWorld } from "./launch_world.ts";
import { openTmux, tmuxAvailable, type TmuxTerminal } from "./tmux.ts";

/** Picker tests need tmux and a POSIX terminal. */
export const PICKER_IGNORED = Deno.build.os === "windows" || !tmuxAvailable();

/** The picker in a terminal of `columns` x `rows`, waiting for its first frame. */
export async function openPicker(
  world: LaunchWorld,
  args: string[],
  size: { columns?: number; rows?: number } = {},
): Promise<TmuxTerminal> {
  const terminal = await openTmux(args, { env: world.env, cwd: world.project, ...size });
  await terminal.waitFor(/Enter resume/);
  return terminal;
}

/** The exit code once claudecm ended (within 20 s). */
export async function exitOf(terminal: TmuxTerminal): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const code = await terminal.exitCode();
    if (code !== undefined) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`claudecm did not end:\n${await terminal.screen()}`);
}

/** The session ids the fake claude was asked to resume. */
export function resumed(world: LaunchWorld): string[] {
  return world.launches().flatMap(({ argv }) => {
    const at = argv.indexOf("--resume");
    return at < 0 ? [] : [argv[at + 1]];
  });
}

/** A picker test in a fresh launch world without cmv; skipped where tmux is not. */
export function pickerTest(name: string, fn: (world: LaunchWorld) => Promise<void>): void {
  Deno.test({ name: `picker: ${name}`, ignore: PICKER_IGNORED, fn: () => inWorldWithoutCmv(fn) });
}
