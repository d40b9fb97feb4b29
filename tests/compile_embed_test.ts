import assert from "node:assert/strict";
import { join } from "node:path";
import {
  appModules,
  compileArgs,
  embedExcludes,
  floorCompileArgs,
  packageEntryModules,
  ROOT,
  runtimePackages,
} from "../scripts/compile_all.ts";

// `deno compile` needs a runtime for the target; DENORT_BIN points it at the
// deno running this test, so it compiles offline and prints the same
// "Embedded Files" summary a release build prints. The file it writes is a
// copy of deno plus the embedded tree, never run.

const MIB = 1024 * 1024;
/**
 * Measured: 3.0 MiB (lib/ 2.8 MB as embedded, jsonc-parser 0.2 MB), past the
 * 3 MiB this was as the app grew. The limit catches a package or a folder
 * embedded by mistake (the deno binary alone is over 100 MB), not growth.
 */
const EMBED_LIMIT_BYTES = 4 * MIB;

Deno.test("the runtime packages are package.json's dependencies and what they need", () => {
  assert.deepEqual([...runtimePackages(ROOT)].sort(), ["jsonc-parser"]);
});

Deno.test("every module under lib/ is passed to --include, the runner and the flows too", () => {
  const args = compileArgs("out");
  const included = args.flatMap((arg, at) => args[at - 1] === "--include" ? [arg] : []);
  assert.deepEqual(included, [...appModules(ROOT), ...packageEntryModules(ROOT)]);
  assert.ok(included.includes("node_modules/jsonc-parser/lib/umd/main.js"), "jsonc-parser's entry");
  for (const path of ["lib/cli/run.ts", "lib/app/list/list.ts", "lib/app/recover/recover.ts"]) {
    assert.ok(included.includes(path), path);
  }
});

Deno.test("the embed excludes the deno executable, type packages and .bin", () => {
  const excludes = embedExcludes(ROOT);
  for (const path of ["node_modules/.bin", "node_modules/deno", "node_modules/@types"]) {
    assert.ok(excludes.includes(path), `${path} is excluded`);
  }
  for (const needed of runtimePackages(ROOT)) {
    assert.ok(
      !excludes.some((path) => `node_modules/${needed}`.startsWith(path)),
      `${needed} is embedded`,
    );
  }
});

Deno.test("deno compile embeds the whole app, and only it and its runtime packages", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-compile-" });
  try {
    const args = compileArgs(join(dir, "claudecm"));
    const output = await new Deno.Command(Deno.execPath(), {
      args: [args[0], "--no-check", ...args.slice(1)],
      cwd: ROOT,
      env: { DENORT_BIN: Deno.execPath(), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    const summary = decoder.decode(output.stdout) + decoder.decode(output.stderr);
    assert.equal(output.code, 0, summary);
    const embed = parseEmbedSummary(summary);
    // Flows load by dynamic import(), which compile does not follow: each is embedded by --include.
    assert.match(summary, /lib\/\* \(/, `every module under lib/ is embedded:\n${summary}`);
    assert.ok(
      embed.totalBytes < EMBED_LIMIT_BYTES,
      `embedded ${embed.totalBytes} bytes, limit ${EMBED_LIMIT_BYTES}:\n${summary}`,
    );
    assert.deepEqual(
      embed.nodeModules.filter((name) => !name.startsWith(".")).sort(),
      [...runtimePackages(ROOT)].map((name) => name.split("/")[0]).sort(),
      summary,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the floor the release measures against is compiled as claudecm is, minus claudecm", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-compile-floor-" });
  try {
    const args = floorCompileArgs(join(dir, "floor"));
    const excludes = (list: string[]) => list.filter((_, at) => list[at - 1] === "--exclude");
    assert.deepEqual(excludes(args), excludes(compileArgs("out")), "the same embed excludes");
    assert.equal(args.at(-1), "bench/floor.ts");
    const output = await new Deno.Command(Deno.execPath(), {
      args: [args[0], "--no-check", ...args.slice(1)],
      cwd: ROOT,
      env: { DENORT_BIN: Deno.execPath(), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    const summary = decoder.decode(output.stdout) + decoder.decode(output.stderr);
    assert.equal(output.code, 0, summary);
    assert.ok(parseEmbedSummary(summary).totalBytes < EMBED_LIMIT_BYTES, summary);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** The "Files:" total and the package folders listed under node_modules in the summary. */
function parseEmbedSummary(summary: string): { totalBytes: number; nodeModules: string[] } {
  const total = summary.match(/^Files:\s*([\d.]+)\s*(B|KB|MB|GB)/m);
  assert.ok(total, `no "Files:" line in:\n${summary}`);
  const unit = { B: 1, KB: 1024, MB: MIB, GB: 1024 * MIB }[total[2] as "B" | "KB" | "MB" | "GB"];
  const lines = summary.split("\n");
  const start = lines.findIndex((line) => /[├└]─┬ node_modules\b/.test(line));
  const nodeModules: string[] = [];
  if (start >= 0) {
    // The tree is as deep as the project's path (on Windows it starts at the drive's folders).
    const indent = lines[start].search(/[├└]─┬ node_modules\b/);
    for (const line of lines.slice(start + 1)) {
      const child = line.slice(indent).match(/^[│ ] [├└]─[─┬] (\S+?)(\/\*)? \(/);
      if (!child) break;
      nodeModules.push(child[1]);
    }
  }
  assert.ok(start >= 0 || !summary.includes("node_modules"), `unparsed summary:\n${summary}`);
  return { totalBytes: Number(total[1]) * unit, nodeModules };
}
