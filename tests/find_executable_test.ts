import assert from "node:assert/strict";
import {
  defaultLocations,
  findOnPath,
  isExecutableFile,
  locateTool,
  pathCandidates,
} from "../lib/platform/find_executable.ts";

const POSIX = Deno.build.os !== "windows";

/** A temp dir with executables to find, removed after `fn`. */
function withDir(fn: (dir: string) => void): void {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-find-" }));
  try {
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

function touch(path: string, mode = 0o755): string {
  Deno.mkdirSync(path.replace(/[\\/][^\\/]*$/, ""), { recursive: true });
  Deno.writeTextFileSync(path, "#!/bin/sh\n");
  if (POSIX) Deno.chmodSync(path, mode);
  return path;
}

Deno.test("defaultLocations are the spec's install paths per OS", () => {
  assert.deepEqual(defaultLocations("claude", "linux", "/home/a"), ["/home/a/.local/bin/claude"]);
  assert.deepEqual(defaultLocations("claude", "darwin", "/Users/a"), [
    "/Users/a/.local/bin/claude",
  ]);
  assert.deepEqual(defaultLocations("claude", "windows", "C:\\Users\\a"), [
    "C:\\Users\\a\\.local\\bin\\claude.exe",
  ]);
  assert.deepEqual(defaultLocations("cmv", "windows", "C:\\Users\\a"), [
    "C:\\Users\\a\\AppData\\Roaming\\npm\\cmv.cmd",
  ]);
  assert.deepEqual(defaultLocations("cmv", "linux", "/home/a"), ["/home/a/.npm-global/bin/cmv"]);
});

Deno.test({
  name: "locateTool: override, then PATH (first executable wins), then the default location",
  ignore: !POSIX,
  fn: () =>
    withDir((dir) => {
      const home = `${dir}/home`;
      const env: Record<string, string> = { PATH: `${dir}/empty::${dir}/noexec:${dir}/a:${dir}/b` };
      const lookup = () => locateTool("claude", { env: (name) => env[name], os: "linux", home });
      assert.deepEqual(lookup(), { found: false, defaults: [`${home}/.local/bin/claude`] });
      touch(`${home}/.local/bin/claude`);
      assert.deepEqual(lookup(), {
        found: true,
        path: `${home}/.local/bin/claude`,
        source: "default",
      });
      touch(`${dir}/noexec/claude`, 0o644);
      touch(`${dir}/b/claude`);
      assert.deepEqual(lookup(), { found: true, path: `${dir}/b/claude`, source: "path" });
      touch(`${dir}/a/claude`);
      assert.equal((lookup() as { path: string }).path, `${dir}/a/claude`);
      env.CLAUDECM_CLAUDE = touch(`${dir}/pinned/claude-2.1.332`);
      assert.deepEqual(lookup(), { found: true, path: env.CLAUDECM_CLAUDE, source: "override" });
      env.CLAUDECM_CLAUDE = `${dir}/pinned/missing`;
      assert.deepEqual(lookup(), {
        found: false,
        badOverride: { variable: "CLAUDECM_CLAUDE", value: `${dir}/pinned/missing` },
        defaults: [`${home}/.local/bin/claude`],
      });
    }),
});

Deno.test("pathCandidates on Windows adds PATHEXT, so `cmv` finds npm's cmv.cmd, and unquotes PATH entries", () => {
  const env: Record<string, string> = { Path: 'C:\\a;"C:\\npm dir";', PATHEXT: ".EXE;.CMD" };
  const candidates = (name: string) => pathCandidates(name, { env: (n) => env[n], os: "windows" });
  assert.deepEqual(candidates("cmv"), [
    "C:\\a\\cmv.exe",
    "C:\\a\\cmv.cmd",
    "C:\\npm dir\\cmv.exe",
    "C:\\npm dir\\cmv.cmd",
  ]);
  assert.deepEqual(candidates("cmv.cmd"), [
    "C:\\a\\cmv.cmd",
    "C:\\a\\cmv.cmd.exe",
    "C:\\a\\cmv.cmd.cmd",
    "C:\\npm dir\\cmv.cmd",
    "C:\\npm dir\\cmv.cmd.exe",
    "C:\\npm dir\\cmv.cmd.cmd",
  ]);
  assert.deepEqual(pathCandidates("cmv", { env: () => "/a::/b", os: "linux" }), [
    "/a/cmv",
    "/b/cmv",
  ]);
});

Deno.test({
  name: "findOnPath finds a real cmv.cmd through PATHEXT",
  ignore: POSIX,
  fn: () =>
    withDir((dir) => {
      touch(`${dir}\\npm dir\\cmv.cmd`);
      const env: Record<string, string> = { Path: `"${dir}\\npm dir"`, PATHEXT: ".EXE;.CMD" };
      assert.equal(
        findOnPath("cmv", { env: (n) => env[n], os: "windows" }),
        `${dir}\\npm dir\\cmv.cmd`,
      );
    }),
});

Deno.test("isExecutableFile: a directory is not, a file without an x bit is not on POSIX", () =>
  withDir((dir) => {
    assert.equal(isExecutableFile(dir, Deno.build.os), false);
    assert.equal(isExecutableFile(`${dir}/missing`, Deno.build.os), false);
    const plain = touch(`${dir}/plain`, 0o644);
    assert.equal(isExecutableFile(plain, "windows"), true);
    if (POSIX) assert.equal(isExecutableFile(plain, "linux"), false);
  }));
