/**
 * claudecm on a full disk: a run inside its own mount namespace
 * (`unshare -r -m`, Linux) where one folder of the world's HOME is a small
 * tmpfs, filled to the last block before claudecm starts. The folder's files
 * are carried onto the tmpfs first, and its content after the run is copied
 * back out, so a test can look at what the run left there.
 *
 * @module
 */

import { childBaseEnv, type ChildOutput, collectOutput } from "./child.ts";
import { claudecmInvocation } from "./run_cli.ts";

/** Whether this machine lets a test mount a tmpfs in its own namespace (Linux, user namespaces). */
export function tmpfsMountable(): boolean {
  if (Deno.build.os !== "linux") return false;
  const dir = Deno.makeTempDirSync();
  try {
    const probe = new Deno.Command("unshare", {
      args: ["-r", "-m", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs "${dir}"`],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return probe.success;
  } catch {
    return false;
  } finally {
    Deno.removeSync(dir);
  }
}

// $1 the folder made full, $2 where its files wait meanwhile; the rest is the command.
const SCRIPT = `
dir="$1"; aside="$2"; shift 2
mkdir -p "$dir" && cp -a "$dir/." "$aside/" || exit 90
mount -t tmpfs -o size=1m tmpfs "$dir" || exit 91
cp -a "$aside/." "$dir/" && rm -rf "$aside"/* "$aside"/.[!.]* 2>/dev/null
dd if=/dev/zero of="$dir/zz-filler" bs=4k 2>/dev/null
"$@"; code=$?
rm -f "$dir/zz-filler"; cp -a "$dir/." "$aside/"
exit $code
`;

/**
 * Run `claudecm ...args` with `full` (a folder under the world's HOME) a
 * full tmpfs; afterwards `full` holds what the run left in it.
 */
export async function runOnFullDisk(
  args: string[],
  options: { env: Record<string, string>; cwd: string; full: string; stdin?: string },
): Promise<ChildOutput> {
  const aside = Deno.makeTempDirSync({ prefix: "claudecm-full-" });
  try {
    const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
    const child = new Deno.Command("unshare", {
      args: [
        "-r",
        "-m",
        "sh",
        "-c",
        SCRIPT,
        "sh",
        options.full,
        aside,
        program,
        ...leading,
        ...args,
      ],
      env: { ...childBaseEnv(), NO_COLOR: "1", ...options.env },
      clearEnv: true,
      cwd: options.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = await collectOutput(child, options.stdin ?? "");
    Deno.removeSync(options.full, { recursive: true });
    Deno.mkdirSync(options.full, { recursive: true });
    for (const entry of Deno.readDirSync(aside)) {
      Deno.renameSync(`${aside}/${entry.name}`, `${options.full}/${entry.name}`);
    }
    return output;
  } finally {
    Deno.removeSync(aside, { recursive: true });
  }
}

// $1 the folder made read-only; the rest is the command.
const READ_ONLY_SCRIPT = `
dir="$1"; shift 1
mkdir -p "$dir" || exit 90
mount --bind "$dir" "$dir" && mount -o remount,bind,ro "$dir" || exit 91
"$@"
`;

/**
 * Run `claudecm ...args` with `readOnly` (a folder under the world's HOME) on
 * a read-only mount (EROFS), in the same kind of namespace as
 * {@linkcode runOnFullDisk}; {@linkcode tmpfsMountable} says whether it can.
 */
export async function runOnReadOnlyDisk(
  args: string[],
  options: { env: Record<string, string>; cwd: string; readOnly: string; stdin?: string },
): Promise<ChildOutput> {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const child = new Deno.Command("unshare", {
    args: [
      "-r",
      "-m",
      "sh",
      "-c",
      READ_ONLY_SCRIPT,
      "sh",
      options.readOnly,
      program,
      ...leading,
      ...args,
    ],
    env: { ...childBaseEnv(), NO_COLOR: "1", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await collectOutput(child, options.stdin ?? "");
}
