import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS } from "../scripts/compile_all.ts";
import { childBaseEnv, type ChildOutput, collectOutput } from "./helpers/child.ts";

// install.sh and install.ps1 against a fake release folder served on
// 127.0.0.1 by the test itself: a good asset installs, a tampered one or an
// unknown platform is refused with nothing installed.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IS_WINDOWS = Deno.build.os === "windows";
const RUN_LIMIT_MS = 60_000;
const FAKE_VERSION = "9.9.9-test";
/** A stand-in for a release binary: prints a version like claudecm does. */
const FAKE_BINARY = `#!/bin/sh\necho ${FAKE_VERSION}\n`;

interface FakeRelease {
  url: string;
  /** Paths the installer asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serve `files` (name → content) at http://127.0.0.1:PORT/NAME until closed. */
function serveRelease(files: Record<string, string>): FakeRelease {
  const requests: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
      requests.push(name);
      if (!(name in files)) return new Response("not found", { status: 404 });
      return new Response(files[name]);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A release folder: every asset is the fake binary, SHA256SUMS lists them all. */
function releaseFiles(overrides: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {};
  for (const { asset } of TARGETS) files[asset] = FAKE_BINARY;
  files.SHA256SUMS = TARGETS.map(({ asset }) => `${sha256(FAKE_BINARY)}  ${asset}\n`).join("");
  return { ...files, ...overrides };
}

interface World {
  home: string;
  release: FakeRelease;
  /** Run the script from `cwd` (the world's HOME by default). */
  run(args: string[], env: Record<string, string>, cwd?: string): Promise<ChildOutput>;
  cleanup(): Promise<void>;
}

function installWorld(files: Record<string, string>, script: "sh" | "ps1"): World {
  const home = Deno.makeTempDirSync({ prefix: "claudecm-install-" });
  const release = serveRelease(files);
  return {
    home,
    release,
    run: (args, env, cwd = home) => {
      const base = { ...childBaseEnv(), HOME: home, USERPROFILE: home };
      const settings = { CLAUDECM_RELEASE_URL: release.url, ...env };
      const command = script === "sh"
        ? new Deno.Command("sh", {
          args: [join(ROOT, "install.sh"), ...args],
          env: { ...base, SHELL: "/bin/sh", ...settings },
          clearEnv: true,
          cwd,
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(RUN_LIMIT_MS),
        })
        : new Deno.Command("powershell", {
          args: [
            "-NoProfile",
            "-NonInteractive",
            "-ExecutionPolicy",
            "Bypass",
            "-File",
            join(ROOT, "install.ps1"),
            ...args,
          ],
          // PowerShell needs its own variables (PSModulePath and more): keep the environment.
          env: { ...base, ...settings },
          cwd,
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(RUN_LIMIT_MS),
        });
      return collectOutput(command.spawn());
    },
    cleanup: async () => {
      await release.close();
      Deno.removeSync(home, { recursive: true });
    },
  };
}

function entries(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

const LINUX = { CLAUDECM_INSTALL_OS: "Linux", CLAUDECM_INSTALL_ARCH: "x86_64" };

Deno.test({
  name: "install.sh installs the checked asset into ~/.local/bin and says how to reach it",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "sh");
    try {
      const run = await world.run([], LINUX);
      assert.equal(run.code, 0, run.stderr);
      const target = join(world.home, ".local", "bin", "claudecm");
      assert.equal(Deno.readTextFileSync(target), FAKE_BINARY);
      assert.equal(Deno.statSync(target).mode! & 0o111, 0o111, "executable");
      assert.deepEqual(entries(join(world.home, ".local", "bin")), ["claudecm"]);
      assert.match(run.stdout, new RegExp(`Installed claudecm ${FAKE_VERSION} at ${target}`));
      assert.match(run.stdout, /is not on your PATH/);
      assert.match(run.stdout, /export PATH=".*\.local\/bin:\$PATH"' >> ~\/\.profile/);
      // The one step that enables completions (issue 33.5).
      assert.match(run.stdout, /\nTab completion: .*claudecm completions (bash|zsh|fish)/);
      assert.deepEqual(world.release.requests, ["SHA256SUMS", "claudecm-linux-x86_64"]);
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh installs into a chosen dir (spaces and all) and replaces an older claudecm",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "sh");
    try {
      const dir = join(world.home, "my tools", "bin");
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, "claudecm"), "old");
      const path = `${dir}:${Deno.env.get("PATH") ?? ""}`;
      const run = await world.run(["--dir", dir], { ...LINUX, PATH: path });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(Deno.readTextFileSync(join(dir, "claudecm")), FAKE_BINARY);
      assert.doesNotMatch(run.stdout, /not on your PATH/, "already on PATH: no advice");
      const fromEnv = await world.run([], {
        ...LINUX,
        CLAUDECM_INSTALL_DIR: join(world.home, "e"),
      });
      assert.equal(fromEnv.code, 0, fromEnv.stderr);
      assert.equal(Deno.readTextFileSync(join(world.home, "e", "claudecm")), FAKE_BINARY);
      // A relative folder is installed into from where the script runs, and advised absolute.
      const relative = await world.run(["--dir", "mybin"], LINUX, world.home);
      assert.equal(relative.code, 0, relative.stderr);
      assert.equal(Deno.readTextFileSync(join(world.home, "mybin", "claudecm")), FAKE_BINARY);
      assert.match(relative.stdout, new RegExp(`export PATH="${join(world.home, "mybin")}:`));
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh refuses a tampered asset and leaves the installed claudecm as it was",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(
      releaseFiles({ "claudecm-linux-x86_64": "#!/bin/sh\nevil\n" }),
      "sh",
    );
    try {
      const dir = join(world.home, ".local", "bin");
      const fresh = await world.run([], LINUX);
      assert.equal(fresh.code, 1);
      assert.match(fresh.stderr, /checksum mismatch for claudecm-linux-x86_64 .*nothing installed/);
      assert.deepEqual(entries(dir), [], "nothing installed");

      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeTextFileSync(join(dir, "claudecm"), "the good old one");
      const over = await world.run([], LINUX);
      assert.equal(over.code, 1);
      assert.equal(Deno.readTextFileSync(join(dir, "claudecm")), "the good old one");
      assert.deepEqual(entries(dir), ["claudecm"], "no partial file left beside it");
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh refuses an asset SHA256SUMS does not list, or that cannot be downloaded",
  ignore: IS_WINDOWS,
  fn: async () => {
    const unlisted = releaseFiles({ SHA256SUMS: `${sha256(FAKE_BINARY)}  claudecm-other\n` });
    const world = installWorld(unlisted, "sh");
    try {
      const run = await world.run([], LINUX);
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /SHA256SUMS has no line for claudecm-linux-x86_64; nothing installed/,
      );
      const missing = await world.run([], {
        ...LINUX,
        CLAUDECM_RELEASE_URL: `${world.release.url}/gone`,
      });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /could not download .*\/gone\/SHA256SUMS/);
      assert.deepEqual(entries(join(world.home, ".local", "bin")), []);
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh refuses an unknown OS or architecture before downloading anything",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "sh");
    try {
      for (
        const [os, arch] of [["FreeBSD", "x86_64"], ["Linux", "riscv64"], ["MINGW64_NT", "x86_64"]]
      ) {
        const run = await world.run([], { CLAUDECM_INSTALL_OS: os, CLAUDECM_INSTALL_ARCH: arch });
        assert.equal(run.code, 1, `${os} ${arch}`);
        assert.match(
          run.stderr,
          new RegExp(`no claudecm binary for ${os} ${arch} .*install\\.ps1`),
        );
      }
      assert.deepEqual(world.release.requests, []);
      assert.deepEqual(entries(join(world.home, ".local", "bin")), []);
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh from a clone (not a release's copy) asks where to download from",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "sh");
    try {
      const run = await world.run([], { ...LINUX, CLAUDECM_RELEASE_URL: "" });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /set CLAUDECM_REPO=owner\/name or CLAUDECM_RELEASE_URL/);
      const bad = await world.run([], { ...LINUX, CLAUDECM_RELEASE_URL: "", CLAUDECM_REPO: "x" });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /set CLAUDECM_REPO=owner\/name/);
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh picks the release asset for each supported uname pair",
  ignore: IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "sh");
    const cases: Array<[string, string, string]> = [
      ["Linux", "x86_64", "claudecm-linux-x86_64"],
      ["Linux", "amd64", "claudecm-linux-x86_64"],
      ["Linux", "aarch64", "claudecm-linux-aarch64"],
      ["Linux", "arm64", "claudecm-linux-aarch64"],
      ["Darwin", "x86_64", "claudecm-macos-x86_64"],
      ["Darwin", "arm64", "claudecm-macos-aarch64"],
    ];
    try {
      for (const [os, arch, asset] of cases) {
        assert.ok(TARGETS.some((target) => target.asset === asset), `${asset} is released`);
        world.release.requests.length = 0;
        const env = { CLAUDECM_INSTALL_OS: os, CLAUDECM_INSTALL_ARCH: arch };
        const run = await world.run(["--dir", join(world.home, os + arch)], env);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(world.release.requests, ["SHA256SUMS", asset], `${os} ${arch}`);
      }
    } finally {
      await world.cleanup();
    }
  },
});

const WINDOWS = { CLAUDECM_INSTALL_OS: "Windows", CLAUDECM_INSTALL_ARCH: "AMD64" };
const WINDOWS_ASSET = "claudecm-windows-x86_64.exe";

Deno.test({
  name: "install.ps1 installs the checked asset as claudecm.exe",
  ignore: !IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles(), "ps1");
    try {
      const run = await world.run([], WINDOWS);
      assert.equal(run.code, 0, run.stderr);
      const dir = join(world.home, ".local", "bin");
      assert.equal(Deno.readTextFileSync(join(dir, "claudecm.exe")), FAKE_BINARY);
      assert.deepEqual(entries(dir), ["claudecm.exe"]);
      assert.match(run.stdout, /is not on your PATH/);
      assert.deepEqual(world.release.requests, ["SHA256SUMS", WINDOWS_ASSET]);
      const chosen = join(world.home, "my tools");
      const withDir = await world.run(["-Dir", chosen], WINDOWS);
      assert.equal(withDir.code, 0, withDir.stderr);
      assert.equal(Deno.readTextFileSync(join(chosen, "claudecm.exe")), FAKE_BINARY);
    } finally {
      await world.cleanup();
    }
  },
});

Deno.test({
  name: "install.ps1 refuses a tampered asset and an unknown platform, installing nothing",
  ignore: !IS_WINDOWS,
  fn: async () => {
    const world = installWorld(releaseFiles({ [WINDOWS_ASSET]: "tampered" }), "ps1");
    try {
      const dir = join(world.home, ".local", "bin");
      const tampered = await world.run([], WINDOWS);
      assert.equal(tampered.code, 1);
      assert.match(tampered.stderr, /checksum mismatch for claudecm-windows-x86_64\.exe/);
      assert.deepEqual(entries(dir), []);
      world.release.requests.length = 0;
      const unknown = await world.run([], {
        CLAUDECM_INSTALL_OS: "Windows",
        CLAUDECM_INSTALL_ARCH: "MIPS",
      });
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no claudecm binary for Windows MIPS .*install\.sh/);
      assert.deepEqual(world.release.requests, []);
    } finally {
      await world.cleanup();
    }
  },
});
