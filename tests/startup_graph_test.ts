import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

// What loads before a command runs. claudecm starts many times a day and
// Deno's Node compatibility layer, commander and jsonc-parser (CommonJS)
// each cost a large part of a start (bench/startup_bench.ts), so:
// main.ts statically imports only dependency-free modules (--version answers
// there); the command tree loads no flow, each command loads its own with
// `await import(...)` in its action; jsonc-parser loads only when needed.
// The graph comes from `deno info --json`, which marks dynamic imports.

const ROOT = new URL("..", import.meta.url).href;

interface InfoDependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

const graph = loadGraph();

function loadGraph(): Map<string, InfoModule> {
  const output = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(new URL("main.ts", ROOT))],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
  return new Map(info.modules.map((module) => [module.specifier, module]));
}

/** Modules that load with `path` (relative to the repository), following only static imports. */
function staticClosure(path: string): string[] {
  const seen = new Set<string>();
  const pending = [new URL(path, ROOT).href];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of graph.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) pending.push(dependency.code.specifier);
    }
  }
  return [...seen].map((specifier) =>
    specifier.startsWith(ROOT) ? specifier.slice(ROOT.length) : specifier
  ).sort();
}

Deno.test("main.ts loads no command, flow, npm package or node: module before it runs", () => {
  const loaded = staticClosure("main.ts");
  const heavy = loaded.filter((path) =>
    path.startsWith("node:") || path.startsWith("node_modules/") || path.startsWith("lib/cli/") ||
    path.startsWith("lib/app/")
  );
  assert.deepEqual(heavy, [], `main.ts loads at start-up: ${loaded.join(", ")}`);
});

Deno.test("the command tree loads no flow: each command imports its flow when it runs", () => {
  const loaded = staticClosure("lib/cli/program.ts");
  const flows = loaded.filter((path) =>
    path.startsWith("lib/app/") && !path.endsWith("/defaults.ts")
  );
  assert.deepEqual(
    flows,
    [],
    "import a flow inside the command's action: `const { runX } = await import(...)`; " +
      "values its --help shows go in lib/app/<feature>/defaults.ts",
  );
  const packages = loaded.filter((path) =>
    path.startsWith("node:") ||
    (path.startsWith("node_modules/") &&
      !/^node_modules\/(@commander-js\/extra-typings|commander)\//.test(path))
  );
  assert.deepEqual(packages, [], "the command tree needs commander only");
});

Deno.test("jsonc-parser is never imported statically: it loads only to edit or diagnose settings", () => {
  const importers = [...graph.values()].filter((module) =>
    (module.dependencies ?? []).some((dependency) =>
      !dependency.isDynamic && dependency.code?.specifier.includes("/node_modules/jsonc-parser/")
    )
  ).map((module) => module.specifier.slice(ROOT.length));
  assert.deepEqual(importers, []);
});
