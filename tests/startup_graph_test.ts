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

/** The files that declare one command each (the tree loads them by name). */
const COMMAND_FILES = [...cliGraph.keys()].map((specifier) => specifier.slice(ROOT.length))
  .filter((path) => /^lib\/cli\/\w+\.ts$/.test(path))
  .filter((path) =>
    /export const \w+Command(: Command(Details|Spec)| = defineCommand\()/.test(
      Deno.readTextFileSync(path),
    )
  );

Deno.test("the command tree loads no flow: each command imports its flow when it runs", () => {
  assert.ok(COMMAND_FILES.includes("lib/cli/list.ts"), "the graph is real");
  const loaded = [
    ...new Set(["lib/cli/program.ts", ...COMMAND_FILES].flatMap((path) => closure(cliGraph, path))),
  ];
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

/** Imports nothing; the runner and the prompter ask it whether a signal is ending the run. */
const ENDING_SIGNAL = "lib/platform/ending_signal.ts";
/**
 * The OS's facts, no tool: the OS this process runs on (read there once, issue 32 item 2), and
 * which processes run (`/proc`, `Deno.kill`), which the list's live marks need.
 */
const OS_FACTS = [
  "lib/platform/os.ts",
  "lib/platform/processes.ts",
  "lib/platform/live_sessions.ts",
  // What stdin is: asked on the first question, importing nothing but os.ts.
  "lib/platform/stdin_kind.ts",
];

Deno.test("--help and command-line errors load only the command tree: the context loads when a command runs", () => {
  const loaded = closure(cliGraph, "lib/cli/run.ts");
  // What the tree, its help and the error mapping need; anything else is a flow's.
  const shared = [
    "lib/core/errors.ts",
    "lib/core/numbers.ts",
    "lib/core/safe_text.ts",
    // No imports: whether a closed terminal or a SIGTERM ends the run (its exit code).
    ENDING_SIGNAL,
    "lib/ui/output.ts",
    "lib/version.ts",
  ];
  const beyond = loaded.filter((path) =>
    path.startsWith("lib/") && !path.startsWith("lib/cli/") && !path.endsWith("/defaults.ts") &&
    !shared.includes(path)
  );
  assert.deepEqual(beyond, []);
});

Deno.test("a command line loads the one command it names: the tree holds names and descriptions", () => {
  assert.ok(COMMAND_FILES.length >= 15, COMMAND_FILES.join(", "));
  const loaded = closure(cliGraph, "lib/cli/run.ts");
  assert.deepEqual(
    loaded.filter((path) => COMMAND_FILES.includes(path) || path === "lib/cli/help.ts"),
    [],
    "a command's file, and the help writer, load when a command line asks for them",
  );
});

/** Modules that load with every one of `entries`, each from its own graph. */
function closureOf(entries: string[]): string[] {
  return [...new Set(entries.flatMap((entry) => closure(loadGraph(entry), entry)))].sort();
}

Deno.test("the context loads no tool: claude, cmv, the editor and spawning load when a flow first asks", () => {
  const tools = closureOf(["lib/app/context.ts"]).filter((path) =>
    path.startsWith("lib/platform/") &&
    !["lib/platform/tools.ts", ENDING_SIGNAL, ...OS_FACTS].includes(path)
  );
  assert.deepEqual(tools, []);
});

Deno.test("list --json loads list's modules only: no tool, transcript reader, other flow or Node built-in", () => {
  const loaded = closureOf(
    ["lib/cli/run.ts", "lib/cli/list.ts", "lib/app/context.ts", "lib/app/list/list.ts"],
  );
  const unwanted = loaded.filter((path) =>
    path.startsWith("node:") || path.startsWith("node_modules/") ||
    path.startsWith("lib/transcript/") ||
    (path.startsWith("lib/platform/") &&
      !["lib/platform/tools.ts", ENDING_SIGNAL, ...OS_FACTS].includes(path)) ||
    (path.startsWith("lib/app/") && !path.endsWith("/defaults.ts") &&
      !["lib/app/context.ts", "lib/app/list/list.ts"].includes(path))
  );
  assert.deepEqual(unwanted, []);
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
    "lib/platform/live_sessions.ts",
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

Deno.test("no code orders strings with localeCompare: its first call costs a start 10 ms", () => {
  // It builds an ICU collator (measured: 10-11 ms on a 25 ms start), and its
  // order follows the user's locale; ids, times and names sort by code unit
  // (lib/core/compare_text.ts).
  const users: string[] = [];
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(new URL(dir, ROOT))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) visit(path);
      else if (path.endsWith(".ts") && path !== "lib/core/compare_text.ts") {
        const text = Deno.readTextFileSync(new URL(path, ROOT));
        if (/\.localeCompare\(|new Intl\.Collator/.test(text)) users.push(path);
      }
    }
  };
  visit("lib");
  assert.deepEqual(users, [], "sort with compareText from lib/core/compare_text.ts");
});
