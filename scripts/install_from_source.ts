/**
 * Install (or remove) a `claudecm` launcher that runs this checkout: the
 * checkout's pinned Deno runs its main.ts in the folder you are in, with no
 * npm in between (npm's banner would break `--json`, and `npm run` runs in
 * the checkout, which claudecm would then register as your project).
 *
 *   npm run install-from-source [-- --dir DIR]
 *   npm run uninstall-from-source [-- --dir DIR]
 *
 * The launcher goes in ~/.local/bin (`CLAUDECM_INSTALL_DIR` or `--dir`
 * choose another folder): `claudecm`, a POSIX shell script, on Linux and
 * macOS; `claudecm.cmd` on Windows. Uninstall removes only a launcher this
 * script wrote, never a release binary or anything else of that name.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import { posix, win32 } from "../lib/core/path.ts";

/** The line every launcher carries, so uninstall knows its own. */
export const LAUNCHER_MARK = "claudecm launcher for a source checkout";

const IS_WINDOWS = Deno.build.os === "windows";
const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** What a launcher for `os` runs: Deno, then its arguments before claudecm's. */
export function launcherCommand(
  checkout: string,
  deno: string,
  os: typeof Deno.build.os,
): [string, string[]] {
  // The launcher's OS names the path flavour, not the OS this runs on.
  const { join } = os === "windows" ? win32 : posix;
  return [deno, [
    "run",
    "--allow-all",
    "--quiet",
    // Named, not discovered: the checkout's deno.json (unstable flags, node_modules) rules,
    // whatever configuration the user's folder has.
    "--config",
    join(checkout, "deno.json"),
    join(checkout, "main.ts"),
  ]];
}

/** The launcher's text for this OS. */
export function launcherText(checkout: string, deno: string, os: typeof Deno.build.os): string {
  const [program, args] = launcherCommand(checkout, deno, os);
  if (os === "windows") {
    const line = [program, ...args].map((word) => `"${word}"`).join(" ");
    return `@echo off\r\nrem ${LAUNCHER_MARK}: ${checkout}\r\n${line} %*\r\n`;
  }
  const line = [program, ...args].map(shellQuote).join(" ");
  return `#!/bin/sh\n# ${LAUNCHER_MARK}: ${checkout}\nexec ${line} "$@"\n`;
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The checkout's own Deno (installed by `npm ci`); null when it is not there. */
function pinnedDeno(): string | null {
  const modules = join(CHECKOUT, "node_modules");
  // The running Deno, when `npm run` started it from this checkout's node_modules.
  if (Deno.execPath().startsWith(modules)) return Deno.execPath();
  const name = IS_WINDOWS ? "deno.exe" : "deno";
  for (const candidate of [join(modules, "deno", name), join(modules, ".bin", name)]) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}

function fail(message: string): never {
  console.error(`claudecm install-from-source: ${message}`);
  Deno.exit(1);
}

function installDir(chosen: string | undefined): string {
  if (chosen) return resolve(chosen);
  const env = Deno.env.get("CLAUDECM_INSTALL_DIR");
  if (env) return resolve(env);
  const home = Deno.env.get(IS_WINDOWS ? "USERPROFILE" : "HOME");
  if (!home) {
    fail(`cannot find your home folder (${IS_WINDOWS ? "USERPROFILE" : "HOME"} is not set)`);
  }
  return join(home, ".local", "bin");
}

function isOurs(path: string): boolean | null {
  try {
    return Deno.readTextFileSync(path).includes(LAUNCHER_MARK);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    // A binary or an unreadable file: not a launcher of ours.
    return false;
  }
}

function onPath(dir: string): boolean {
  const separator = IS_WINDOWS ? ";" : ":";
  const same = (a: string) =>
    IS_WINDOWS ? resolve(a).toLowerCase() === dir.toLowerCase() : resolve(a) === dir;
  return (Deno.env.get("PATH") ?? "").split(separator).some((entry) => entry !== "" && same(entry));
}

function install(dir: string): void {
  const deno = pinnedDeno();
  if (deno === null) fail(`no Deno in ${join(CHECKOUT, "node_modules")}: run npm ci first`);
  const path = join(dir, IS_WINDOWS ? "claudecm.cmd" : "claudecm");
  if (isOurs(path) === false) {
    fail(`${path} is there and is not a source launcher (a release binary?); remove it first`);
  }
  Deno.mkdirSync(dir, { recursive: true });
  const temporary = `${path}.tmp-${Deno.pid}`;
  Deno.writeTextFileSync(temporary, launcherText(CHECKOUT, deno, Deno.build.os));
  if (!IS_WINDOWS) Deno.chmodSync(temporary, 0o755);
  Deno.renameSync(temporary, path);
  console.log(`Installed ${path}: runs ${join(CHECKOUT, "main.ts")} with ${deno}.`);
  console.log("It names this checkout: after moving the checkout, install again from there.");
  if (!onPath(dir)) {
    console.log(
      IS_WINDOWS
        ? `${dir} is not on your PATH: add it in Settings > Environment Variables (user Path).`
        : `${dir} is not on your PATH: add  export PATH="${dir}:$PATH"  to your ~/.profile.`,
    );
  }
  console.log(`Tab completion: ${completionStep(Deno.env.get("SHELL") ?? "")}`);
}

/** The one step that turns on tab completion for the user's shell (claudecm completions --help). */
function completionStep(shell: string): string {
  if (IS_WINDOWS) {
    return "add  claudecm completions powershell | Out-String | Invoke-Expression  to $PROFILE";
  }
  if (shell.endsWith("/zsh")) {
    return 'add  eval "$(claudecm completions zsh)"  to ~/.zshrc (after compinit)';
  }
  if (shell.endsWith("/fish")) {
    return "claudecm completions fish > ~/.config/fish/completions/claudecm.fish";
  }
  return 'add  eval "$(claudecm completions bash)"  to ~/.bashrc';
}

function uninstall(dir: string): void {
  const path = join(dir, IS_WINDOWS ? "claudecm.cmd" : "claudecm");
  const ours = isOurs(path);
  if (ours === null) {
    console.log(`No launcher at ${path}; nothing to remove.`);
    return;
  }
  if (!ours) fail(`${path} is not a source launcher (a release binary?); left as it is`);
  Deno.removeSync(path);
  console.log(`Removed ${path}.`);
}

if (import.meta.main) {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      options: { dir: { type: "string" }, uninstall: { type: "boolean" } },
      allowPositionals: false,
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : error}; usage: [--dir DIR] [--uninstall]`);
  }
  const dir = installDir(parsed.values.dir);
  if (parsed.values.uninstall) uninstall(dir);
  else install(dir);
}
