import assert from "node:assert/strict";

// What loads before a command runs. claudecm starts many times a day and
// Deno's Node compatibility layer and jsonc-parser (CommonJS)
// each cost a large part of a start (bench/startup_bench.ts), so:
// main.ts imports only the version (--version answers there) and reaches
// lib/cli/run.ts by a computed specifier, because Deno reads ahead every
// import() it can resolve; the command tree loads no flow, each command
// loads its own with `await import(...)` in its action; jsonc-parser loads
// only when needed. The graphs come from `deno info --json`, which marks
// dynamic imports.

const ROOT = new URL("..", import.meta.url).href;

interface InfoDependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

/** The module graph `deno info` builds from `path`, dynamic imports included. */
function loadGraph(path: string): Map<string, InfoModule> {
  const output = new Deno.Command(Deno.execPath(), {
    // A file URL, not a path: on Windows `deno info` names a path's modules differently.
    args: ["info", "--json", new URL(path, ROOT).href],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
  return new Map(info.modules.map((module) => [module.specifier, module]));
}

const mainGraph = loadGraph("main.ts");
const cliGraph = loadGraph("lib/cli/run.ts");

/** Modules that load with `path` (relative to the repository), following static imports only unless `dynamic`. */
function closure(graph: Map<string, InfoModule>, path: string, dynamic = false): string[] {
  const seen = new Set<string>();
  const pending = [new URL(path, ROOT).href];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of graph.get(specifier)?.dependencies ?? []) {
      if (dependency.code && (dynamic || !dependency.isDynamic)) {
        pending.push(dependency.code.specifier);
      }
    }
  }
  return [...seen].map((specifier) =>
    specifier.startsWith(ROOT) ? specifier.slice(ROOT.length) : specifier
  ).sort();
}

Deno.test("main.ts loads, or makes Deno read ahead, nothing but the version", () => {
  const loaded = closure(mainGraph, "main.ts", true);
  assert.deepEqual(loaded, ["lib/version.ts", "main.ts", "package.json"]);
});

Deno.test("the command tree loads no flow: each command imports its flow when it runs", () => {
  const loaded = closure(cliGraph, "lib/cli/program.ts");
  assert.ok(loaded.includes("lib/cli/list.ts"), "the graph is real");
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
    path.startsWith("node:") || path.startsWith("node_modules/")
  );
  assert.deepEqual(packages, [], "the command tree needs no package and no Node built-in");
});

Deno.test("jsonc-parser is never imported statically: it loads only to edit or diagnose settings", () => {
  const importers = [...cliGraph.values()].filter((module) =>
    (module.dependencies ?? []).some((dependency) =>
      !dependency.isDynamic && dependency.code?.specifier.includes("/node_modules/jsonc-parser/")
    )
  ).map((module) => module.specifier.slice(ROOT.length));
  assert.deepEqual(importers, []);
});

Deno.test("the modules list --json loads import no Node built-in", () => {
  // Importing any node: module makes Deno load its Node layer, ~8-28 ms of
  // start-up each (node:path, node:os, node:process, node:fs); list --json
  // must start within 2x a one-line script. lib/core/path.ts replaces
  // node:path; Deno.kill and Deno.hostname replace node:process and node:os.
  const entries = [
    "lib/core/paths.ts",
    "lib/store/registry_store.ts",
    "lib/core/session_info.ts",
    "lib/core/pid_manifest.ts",
    "lib/app/context.ts",
  ];
  const builtIns = entries.flatMap((entry) =>
    closure(loadGraph(entry), entry, true).filter((path) => path.startsWith("node:"))
      .map((path) => `${entry} -> ${path}`)
  );
  assert.deepEqual(builtIns, []);
});

Deno.test("the reader of sessions claude moved loads only when a row's transcript left its folder", () => {
  for (const entry of ["lib/app/bootstrap/bootstrap.ts", "lib/app/resume/resume_picked.ts"]) {
    const loaded = closure(cliGraph, entry);
    assert.ok(loaded.includes("lib/core/transcript_location.ts"), `${entry}: the graph is real`);
    assert.ok(!loaded.includes("lib/app/move/relocation.ts"), `${entry} loads relocation.ts`);
  }
});

Deno.test("find loads only the way it searches: no resume chain until a pick, no reader or Node built-in before a match", () => {
  const graph = loadGraph("lib/app/find/find.ts");
  const flow = closure(graph, "lib/app/find/find.ts");
  const unwanted = flow.filter((path) =>
    path.startsWith("node:") || path.startsWith("lib/app/resume/") ||
    path.startsWith("lib/app/launch/") || path.startsWith("lib/platform/spawn") ||
    ["lib/app/find/pick.ts", "lib/app/find/scan_search.ts", "lib/app/find/index_search.ts"]
      .includes(path) ||
    path === "lib/transcript/lines.ts"
  );
  assert.deepEqual(unwanted, []);
  const scan = closure(graph, "lib/app/find/scan_search.ts").filter((path) =>
    path.startsWith("node:") || path === "lib/transcript/lines.ts"
  );
  assert.deepEqual(scan, [], "--no-index reads with Node's Buffer only once a file matches");
});

Deno.test("a query on an up-to-date index loads node:sqlite and no reader: the writer loads when a file changed", () => {
  const entry = "lib/app/find/index_search.ts";
  const query = closure(loadGraph(entry), entry);
  const builtIns = query.filter((path) => path.startsWith("node:"));
  assert.deepEqual(builtIns, ["node:sqlite"], "node:buffer costs a query 4-12 ms");
  assert.ok(!query.includes("lib/transcript/lines.ts"), "the line reader loads node:buffer");
  assert.ok(!query.includes("lib/app/find/index_write.ts"), "the writer loads when needed");
});
