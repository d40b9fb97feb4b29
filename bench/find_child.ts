/**
 * One measured task of the find benchmark, in its own process so its peak
 * memory is its own. Modes: `build` (first index build), `query` (queries on
 * the built index), `update` (append 1 MB to one transcript, then the
 * incremental update), `scan` (find --no-index). HOME and CLAUDE_CONFIG_DIR
 * come from the environment. Prints one JSON line.
 *
 * Usage: deno run -A bench/find_child.ts MODE [TERM...]
 *
 * @module
 */

import process from "node:process";
import { findIndexPath, searchOpenIndex } from "../lib/app/find/index_search.ts";
import { updateIndex } from "../lib/app/find/index_update.ts";
import { scanSearch } from "../lib/app/find/scan_search.ts";
import {
  ftsMatch,
  highlightPattern,
  matchesAll,
  parseTerms,
  rawPrecheck,
} from "../lib/app/find/terms.ts";
import { resolvePaths } from "../lib/core/paths.ts";
import { FindIndexDb } from "../lib/store/find_index_db.ts";
import { listAllTranscripts } from "../lib/transcript/all_transcripts.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { generateTranscript } from "../scripts/gen_transcript.ts";
import { peakRssMiB, rssMiB } from "./measure.ts";

const ROLES = ["user", "assistant", "tool"] as const;

/** A query as `find` runs it on an up-to-date index: ranked pieces, grouped, 20 sessions' snippets. */
function query(index: FindIndexDb, terms: string[]): { ms: number; hits: number } {
  const match = ftsMatch(parseTerms(terms));
  const started = performance.now();
  const highlight = highlightPattern(parseTerms(terms));
  const sessions = searchOpenIndex(index, { match, highlight, roles: ROLES }, {
    sessionLimit: 20,
    now: new Date(),
  });
  const ms = performance.now() - started;
  return { ms, hits: sessions.length };
}

function main(): void {
  const [mode, ...terms] = Deno.args;
  const paths = resolvePaths((name) => Deno.env.get(name), Deno.build.os);
  const dbPath = findIndexPath(paths);
  const result: Record<string, unknown> = { mode };
  const cpuStart = process.cpuUsage();
  if (mode === "build") {
    Deno.mkdirSync(paths.cmHome, { recursive: true });
    const index = FindIndexDb.open(dbPath, { writer: true })!;
    const stats = updateIndex(index, paths.projectsDir);
    index.close();
    Object.assign(result, { ms: stats.ms, bytes: stats.bytes, files: stats.files });
    result.dbBytes = Deno.statSync(dbPath).size;
  } else if (mode === "query") {
    const index = FindIndexDb.open(dbPath, { writer: false })!;
    const runs = [query(index, terms), query(index, terms), query(index, terms)];
    index.close();
    Object.assign(result, { ms: runs.map((r) => r.ms), hits: runs[0].hits });
  } else if (mode === "update") {
    // 1 MB of the usual mix (prompts, answers, tool calls and their output), plus a marker word.
    const file = listAllTranscripts(paths.projectsDir)[0];
    const extra = `${file.path}.extra`;
    generateTranscript(extra, { bytes: 1_000_000, cwd: "/bench/appended", seed: 99 });
    const marker = new TranscriptBuilder({ cwd: "/bench/appended" })
      .prompt("appended prompt about the okapi rollout").toString();
    Deno.writeFileSync(file.path, Deno.readFileSync(extra), { append: true });
    Deno.writeTextFileSync(file.path, marker, { append: true });
    Deno.removeSync(extra);
    const index = FindIndexDb.open(dbPath, { writer: true })!;
    const updateCpu = process.cpuUsage();
    const stats = updateIndex(index, paths.projectsDir);
    const spent = process.cpuUsage(updateCpu);
    result.updateCpuMs = (spent.user + spent.system) / 1000;
    const found = searchOpenIndex(index, {
      match: '"okapi"',
      highlight: /okapi/gi,
      roles: ROLES,
    }, { sessionLimit: 10, now: new Date() }).length;
    index.close();
    Object.assign(result, { ms: stats.ms, bytes: stats.bytes, files: stats.files, found });
  } else if (mode === "scan") {
    const parsed = parseTerms(terms);
    const started = performance.now();
    const sessions = scanSearch(paths.projectsDir, {
      matches: (text) => matchesAll(parsed, text),
      precheck: rawPrecheck(parsed),
      highlight: highlightPattern(parsed),
      roles: ROLES,
    });
    Object.assign(result, { ms: performance.now() - started, sessions: sessions.length });
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  result.cpuMs = (cpu.user + cpu.system) / 1000;
  result.peakRssMiB = peakRssMiB(rssMiB()).peak;
  console.log(JSON.stringify(result));
}

main();
