/**
 * The release's install script, run against a release folder served on
 * 127.0.0.1 as GitHub would serve the release's assets: install.sh on Linux
 * and macOS, install.ps1 (Windows PowerShell) on Windows, into a folder of
 * the fixture home.
 *
 * @module
 */

import { join } from "../../lib/core/path.ts";
import type { FixtureHome } from "./fixture_home.ts";
import { runBinary } from "./run_binary.ts";

/** What the install did: the installed binary's path, or why it failed. */
export type InstallOutcome = { ok: true; path: string } | {
  ok: false;
  path?: never;
  detail: unknown;
};

/** Serve `dir`'s files by name until the returned function is called. */
function serveFolder(dir: string): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
    if (name.includes("/") || name.includes("\\") || name.startsWith(".")) {
      return new Response("not found", { status: 404 });
    }
    try {
      return new Response(Deno.readFileSync(join(dir, name)));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Run `releaseDir`'s install script for this system; the installed binary on success. */
export async function runInstallScript(
  releaseDir: string,
  world: FixtureHome,
): Promise<InstallOutcome> {
  const served = serveFolder(releaseDir);
  const target = join(world.root, "installed");
  const windows = Deno.build.os === "windows";
  try {
    // The script runs as a user's shell would run it: their environment (its tools, PowerShell's
    // modules), this home, and no CLAUDECM_* of the machine's but the release to install from.
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(Deno.env.toObject())) {
      if (!name.startsWith("CLAUDECM_")) env[name] = value;
    }
    Object.assign(env, {
      HOME: world.home,
      USERPROFILE: world.home,
      CLAUDECM_RELEASE_URL: served.url,
    });
    const system = Deno.env.get("SystemRoot") ?? "C:\\Windows";
    const powershell = `${system}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`;
    const run = windows
      ? await runBinary(powershell, [
        "-NoProfile",
        "-ExecutionPolicy",
        "Bypass",
        "-File",
        join(releaseDir, "install.ps1"),
        "-Dir",
        target,
      ], { env })
      : await runBinary("/bin/sh", [join(releaseDir, "install.sh"), "--dir", target], { env });
    const path = join(target, windows ? "claudecm.exe" : "claudecm");
    let installed = false;
    try {
      installed = Deno.statSync(path).isFile;
    } catch {
      // Not installed.
    }
    return run.code === 0 && installed ? { ok: true, path } : { ok: false, detail: run };
  } finally {
    await served.close();
  }
}
