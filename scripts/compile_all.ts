/**
 * Build the release binaries: `deno compile` for every target, then
 * SHA256SUMS over them (`npm run compile`), or only the host's binary as
 * `dist/claudecm` (`npm run compile:host`, what CI tests), or the host's
 * compiled one-line program as `dist/floor` (`npm run compile:floor`, what
 * the release workflow measures compiled start-up against). All need Deno's
 * runtime for the target, which `deno compile` downloads, so none runs in
 * local CI.
 *
 * `deno compile` embeds the whole node_modules folder unless told otherwise,
 * and ours holds the Deno executable itself (npm package `deno`), so every
 * node_modules entry that is not a runtime dependency is excluded: see
 * {@linkcode embedExcludes}.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { VERSION } from "../lib/version.ts";

/** Release targets and the asset name each produces. */
export const TARGETS: ReadonlyArray<{ target: string; asset: string }> = [
  { target: "x86_64-unknown-linux-gnu", asset: "claudecm-linux-x86_64" },
  { target: "aarch64-unknown-linux-gnu", asset: "claudecm-linux-aarch64" },
  { target: "x86_64-apple-darwin", asset: "claudecm-macos-x86_64" },
  { target: "aarch64-apple-darwin", asset: "claudecm-macos-aarch64" },
  { target: "x86_64-pc-windows-msvc", asset: "claudecm-windows-x86_64.exe" },
];

/** The repository root: compile paths are relative to it. */
export const ROOT: string = fileURLToPath(new URL("..", import.meta.url));

const OUT_DIR = "dist";

interface PackageJson {
  main?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackageJson(path: string): PackageJson | undefined {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * The packages the app needs at run time: package.json's `dependencies` and,
 * transitively, theirs (peer and optional ones included, when installed).
 */
export function runtimePackages(root: string): Set<string> {
  const needed = new Set<string>();
  const pending = Object.keys(readPackageJson(join(root, "package.json"))?.dependencies ?? {});
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (needed.has(name)) continue;
    const manifest = readPackageJson(join(root, "node_modules", name, "package.json"));
    if (manifest === undefined) continue;
    needed.add(name);
    pending.push(
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    );
  }
  return needed;
}

/**
 * The entry module of each package package.json depends on directly (its
 * `main`), as a path relative to `root`. The app imports them by dynamic
 * import() only (jsonc-parser, when settings.json needs a change), which
 * compile does not follow under lazy dynamic imports; passed to `--include`,
 * compile reads and analyses them as it did when it followed the import.
 */
export function packageEntryModules(root: string = ROOT): string[] {
  const direct = Object.keys(readPackageJson(join(root, "package.json"))?.dependencies ?? {});
  return direct.sort().map((name) => {
    const main = readPackageJson(join(root, "node_modules", name, "package.json"))?.main;
    return `node_modules/${name}/${(main ?? "index.js").replace(/^\.\//, "")}`;
  });
}

/**
 * What `deno compile` must leave out, as paths relative to `root`:
 * `node_modules/.bin` and every installed package that is not a runtime
 * dependency (a whole `@scope` folder when none of its packages is needed).
 * Without this the binary carries the Deno executable from the npm package
 * `deno` (about 94 MB) next to the runtime it already is.
 */
export function embedExcludes(root: string): string[] {
  const needed = runtimePackages(root);
  const nodeModules = join(root, "node_modules");
  const excludes = ["node_modules/.bin"];
  for (const entry of sortedDirs(nodeModules)) {
    if (entry.startsWith(".")) continue;
    if (!entry.startsWith("@")) {
      if (!needed.has(entry)) excludes.push(`node_modules/${entry}`);
      continue;
    }
    const scoped = sortedDirs(join(nodeModules, entry)).map((name) => `${entry}/${name}`);
    const unneeded = scoped.filter((name) => !needed.has(name));
    if (unneeded.length === scoped.length) excludes.push(`node_modules/${entry}`);
    else excludes.push(...unneeded.map((name) => `node_modules/${name}`));
  }
  return excludes;
}

function sortedDirs(dir: string): string[] {
  return [...Deno.readDirSync(dir)].filter((entry) => entry.isDirectory).map((e) => e.name)
    .sort();
}

/**
 * Every module under lib/, each passed to `deno compile --include`. compile
 * embeds only what it can follow from main.ts, and it follows no dynamic
 * import: main.ts reaches the command runner by a computed specifier, and
 * deno.json turns on lazy dynamic imports (start-up: see main.ts), under
 * which compile skips even `await import("...")` with a literal path, which
 * is how every command loads its flow. So nothing under lib/ is left to it.
 */
export function appModules(root: string = ROOT): string[] {
  const modules: string[] = [];
  const walk = (dir: string): void => {
    for (
      const entry of [...Deno.readDirSync(join(root, dir))].sort((a, b) => a.name < b.name ? -1 : 1)
    ) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".ts")) modules.push(path);
    }
  };
  walk("lib");
  return modules;
}

/** The `deno compile` arguments for one binary (`target` omitted: the host's). */
export function compileArgs(output: string, options: { target?: string } = {}): string[] {
  const target = options.target === undefined ? [] : ["--target", options.target];
  const excludes = embedExcludes(ROOT).flatMap((path) => ["--exclude", path]);
  return [
    "compile",
    "--allow-all",
    ...target,
    ...[...appModules(ROOT), ...packageEntryModules(ROOT)].flatMap((path) => ["--include", path]),
    ...excludes,
    "--output",
    output,
    "main.ts",
  ];
}

/**
 * The `deno compile` arguments for the floor: bench/floor.ts, a one-line
 * program, built as the binaries are (same runtime, same embed excludes), so
 * the difference in start-up is claudecm's own.
 */
export function floorCompileArgs(output: string): string[] {
  const excludes = embedExcludes(ROOT).flatMap((path) => ["--exclude", path]);
  return ["compile", "--allow-all", ...excludes, "--output", output, "bench/floor.ts"];
}

/** Where `--floor` writes the host's compiled one-line program. */
export const FLOOR_BINARY: string = Deno.build.os === "windows"
  ? `${OUT_DIR}/floor.exe`
  : `${OUT_DIR}/floor`;

/** Where `--host` writes the host's binary (what CI runs its tests against). */
export const HOST_BINARY: string = Deno.build.os === "windows"
  ? `${OUT_DIR}/claudecm.exe`
  : `${OUT_DIR}/claudecm`;

async function compile(output: string, target?: string): Promise<void> {
  await runDeno(compileArgs(output, { target }), `deno compile failed for ${target ?? "the host"}`);
}

async function runDeno(args: string[], failure: string): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(failure);
}

function sha256(path: string): string {
  return createHash("sha256").update(Deno.readFileSync(path)).digest("hex");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { host: { type: "boolean" }, floor: { type: "boolean" } },
  });
  const outDir = join(ROOT, OUT_DIR);
  Deno.mkdirSync(outDir, { recursive: true });
  if (values.floor) {
    await runDeno(floorCompileArgs(join(ROOT, FLOOR_BINARY)), "deno compile failed for the floor");
    console.log(`the compiled one-line program: ${FLOOR_BINARY}`);
    return;
  }
  if (values.host) {
    await compile(join(ROOT, HOST_BINARY));
    console.log(`claudecm ${VERSION}: ${HOST_BINARY}`);
    return;
  }
  for (const { target, asset } of TARGETS) await compile(join(outDir, asset), target);
  const sums = TARGETS.map(({ asset }) => `${sha256(join(outDir, asset))}  ${asset}\n`).join("");
  Deno.writeTextFileSync(join(outDir, "SHA256SUMS"), sums);
  console.log(`claudecm ${VERSION}: ${TARGETS.length} binaries and SHA256SUMS in ${OUT_DIR}/`);
}

if (import.meta.main) await main();
