import assert from "node:assert/strict";

// The layers (CONTRIBUTING.md, issue 32): main -> cli -> app -> platform /
// transcript / ui / store -> core, and the platform as a boundary: the OS is
// asked in lib/platform/os.ts (main.ts answers --version before it loads anything),
// processes start there and /proc is read there. Everything else receives
// `os` and the process facts as parameters, so a test runs any decision's
// Windows branch on Linux. Inside lib/app the feature folders import each
// other one way only (no cycle, counting what loads at run time): session/
// and lib/app's own files at the bottom, after_exit/ above what it offers.

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

/**
 * The lib/ files `path` imports, statically, by type or by `import()`; with
 * `valuesOnly`, those it loads when it runs: not `import type`/`export type`
 * (re-exports, `export ... from`, count).
 */
function importsOf(path: string, { valuesOnly = false } = {}): string[] {
  const text = code(path);
  const statics = valuesOnly
    ? /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"(\.[^"]+)"/gm
    : /\bfrom\s+"(\.[^"]+)"/g;
  const specifiers = [
    ...text.matchAll(statics),
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

/** The feature folder of a lib/app file (`(app)` for lib/app's own files), else undefined. */
function featureOf(path: string): string | undefined {
  const parts = path.split("/");
  if (parts[0] !== "lib" || parts[1] !== "app") return undefined;
  return parts.length === 3 ? "(app)" : parts[2];
}

/** Folder to folder edges of lib/app, each with the first file import that makes it. */
function featureGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const path of LIB) {
    const from = featureOf(path);
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const target of importsOf(path, { valuesOnly: true })) {
      const to = featureOf(target);
      if (to === undefined || to === from || graph.get(from)!.has(to)) continue;
      graph.get(from)!.set(to, `${path} -> ${target}`);
    }
  }
  return graph;
}

/** The strongly connected components of `graph` (Tarjan), each sorted. */
function components(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

Deno.test("the feature folders of lib/app import each other without a cycle", () => {
  const graph = featureGraph();
  assert.ok(graph.get("list")?.has("picker"), "the scan sees dynamic imports");
  const cycles = components(graph).filter((component) => component.length > 1).map(
    (component) =>
      component.flatMap((from) =>
        [...graph.get(from)!].filter(([to]) => component.includes(to)).map(([, edge]) => edge)
      ),
  );
  assert.deepEqual(
    cycles,
    [],
    "a folder that imports one that imports it back: move what both need down (session/ is " +
      "the bottom, after_exit/ the top; CONTRIBUTING.md)",
  );
});

Deno.test("session/ and lib/app's own files are the bottom: they import no feature folder", () => {
  const graph = featureGraph();
  assert.ok(graph.has("session") && graph.has("(app)"), "the scan is real");
  const upward = ["(app)", "session"].flatMap((from) =>
    [...graph.get(from)!].filter(([to]) => !["(app)", "session"].includes(to))
      .map(([, edge]) => edge)
  );
  assert.deepEqual(upward, [], "what every flow needs imports no flow (CONTRIBUTING.md)");
});
