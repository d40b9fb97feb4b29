import assert from "node:assert/strict";

// The layers (CONTRIBUTING.md, issue 32): main -> cli -> app -> platform /
// transcript / ui / store -> core, and the platform as a boundary: the OS is
// asked in lib/platform/os.ts (main.ts answers --version before it loads anything),
// processes start there and /proc is read there. Everything else receives
// `os` and the process facts as parameters, so a test runs any decision's
// Windows branch on Linux.

const ROOT = new URL("..", import.meta.url);

/** Every TypeScript file under `dir` (relative to the repository), `/`-separated. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...sources(path));
    else if (path.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** The code of a file without its comments (a string holding `//` may lose its line's end: fine here). */
function code(path: string): string {
  return Deno.readTextFileSync(new URL(path, ROOT))
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const LIB = sources("lib");

/** Files whose code matches `pattern`, outside `allowed`. */
function offenders(pattern: RegExp, allowed: (path: string) => boolean): string[] {
  return LIB.filter((path) => !allowed(path) && pattern.test(code(path)));
}

const inPlatform = (path: string) => path.startsWith("lib/platform/");

/** Where the OS is asked: os.ts, and ending_signal.ts, which must import nothing (the runner's). */
const ASKS_THE_OS = ["lib/platform/os.ts", "lib/platform/ending_signal.ts"];

Deno.test("the OS is asked in one place: everything else takes os as a parameter", () => {
  assert.ok(LIB.length > 100 && LIB.includes("lib/platform/os.ts"), "the scan is real");
  // `typeof Deno.build.os` is a type (OsName), not a question to the OS.
  const asks = /(?<!typeof )\bDeno\.build\.os\b/;
  const readers = [
    ...offenders(asks, (path) => ASKS_THE_OS.includes(path)),
    // main.ts too: its --version line loads os.ts beside claude's version.
    ...(asks.test(code("main.ts")) ? ["main.ts"] : []),
  ];
  assert.deepEqual(
    readers,
    [],
    "take `os` from the context (ctx.os) or an option; a module that works this machine's " +
      "files as they are reads `hostOs` from lib/platform/os.ts",
  );
});

Deno.test("processes start only in lib/platform, and only it reads /proc", () => {
  assert.deepEqual(
    offenders(/\bDeno\.(Command|run)\b/, inPlatform),
    [],
    "start a program through lib/platform/spawn.ts",
  );
  assert.deepEqual(
    offenders(/["'`]\/proc\//, inPlatform),
    [],
    "ask lib/platform/processes.ts",
  );
});

/** How high a folder of lib/ sits: a module imports only from its own height or below. */
const HEIGHT: Record<string, number> = {
  core: 0,
  store: 1,
  transcript: 1,
  ui: 1,
  platform: 1,
  app: 2,
  cli: 3,
};

/**
 * Platform modules lower layers may import: the host OS (imports nothing) and
 * the process facts (import only it and core types).
 */
const OS_FACTS: Record<string, number> = {
  "lib/platform/os.ts": 0,
  "lib/platform/processes.ts": 1,
};

/** The lib/ files `path` imports, statically, by type or by `import()`. */
function importsOf(path: string): string[] {
  const text = code(path);
  const specifiers = [
    ...text.matchAll(/\bfrom\s+"(\.[^"]+)"/g),
    ...text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g),
    ...text.matchAll(/^import\s+"(\.[^"]+)"/gm),
  ].map((match) => match[1]);
  return specifiers.map((specifier) =>
    new URL(specifier, new URL(path, ROOT)).href.slice(ROOT.href.length)
  );
}

function heightOf(path: string): number | undefined {
  if (path in OS_FACTS) return OS_FACTS[path];
  if (path === "lib/version.ts") return 0;
  return HEIGHT[path.split("/")[1]];
}

Deno.test("no module imports a layer above its own", () => {
  const upward: string[] = [];
  for (const path of LIB) {
    const own = heightOf(path);
    if (own === undefined) continue;
    for (const target of importsOf(path)) {
      const height = heightOf(target);
      if (height !== undefined && height > own) upward.push(`${path} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

Deno.test("lib/core imports only lib/core and the host OS", () => {
  const outside = LIB.filter((path) => path.startsWith("lib/core/")).flatMap((path) =>
    importsOf(path).filter((target) =>
      target.startsWith("lib/") && !target.startsWith("lib/core/") &&
      target !== "lib/platform/os.ts"
    ).map((target) => `${path} -> ${target}`)
  );
  assert.deepEqual(outside, []);
});

Deno.test("the host OS fact imports nothing, so every layer may load it at no cost", () => {
  assert.deepEqual(importsOf("lib/platform/os.ts"), []);
  assert.deepEqual(
    importsOf("lib/platform/processes.ts").filter((target) =>
      target !== "lib/platform/os.ts" && !target.startsWith("lib/core/")
    ),
    [],
  );
});
