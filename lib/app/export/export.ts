/**
 * `claudecm export SESSION`: a session as Markdown (to stdout by default) or
 * as one HTML page, read-only: nothing is written but the file `-o` names,
 * which is put in place whole and never replaces a file unless `--force`.
 *
 * @module
 */

import { ExitCode, UsageError, UserError } from "../../core/errors.ts";
import { relocateUnder } from "../../core/folder_match.ts";
import { probePath } from "../../core/fs_checks.ts";
import { resolveRealPath } from "../../core/project_key.ts";
import { Redactor } from "../../core/redact.ts";
import { latchInterrupts } from "../../platform/interrupt_latch.ts";
import { cleanName, visibleText } from "../../core/safe_text.ts";
import { openStreamedFile, type StreamedFile } from "../../store/atomic_stream.ts";
import { realTarget } from "../../store/atomic_write.ts";
import { listSubagents, readExportFacts } from "../../transcript/export_facts.ts";
import type { AppContext } from "../context.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { withoutOwnPrefix } from "../../transcript/session_title.ts";
import { typedPath } from "../folder_option.ts";
import { type ExportSource, resolveExportSource } from "./export_source.ts";
import { exportSession } from "./export_session.ts";
import { type ExportResult, exportResultLines } from "./export_view.ts";
import { htmlView } from "./html_view.ts";
import { markdownView } from "./markdown_view.ts";
import type { ExportHeader } from "./render.ts";

/** What `export` writes: markdown or HTML (the command table refuses any other). */
export type ExportFormat = "md" | "html";

/** What `export` was asked. */
export interface ExportOptions {
  session: string;
  format?: ExportFormat;
  /** The file to write; stdout when absent. */
  output?: string;
  force?: boolean;
  redact?: boolean;
  json?: boolean;
}

const SOURCES: Record<ExportSource["where"], string> = {
  projects: "claude's project folder",
  vault: "the vault (claude no longer has this transcript)",
  backup: "claudecm's backup folder (set aside by a fork it followed, a trim or P#)",
};

/** Run `export`; returns the exit code. */
export async function runExport(ctx: AppContext, options: ExportOptions): Promise<number> {
  const format = options.format ?? "md";
  if (options.json && options.output === undefined) {
    throw new UsageError("--json needs -o FILE: the export goes to the file, the result to stdout");
  }
  const target = options.output === undefined ? undefined : checkTarget(ctx, options);
  const source = resolveExportSource(ctx, options.session);
  const redactor = options.redact ? new Redactor() : undefined;
  const header = headerOf(source, { redactor, machine: ownMachineNames(ctx) });
  const subagents = listSubagents(source.sidecar, ctx.paths.path.join);

  let file: StreamedFile | undefined;
  let write: (text: string) => void;
  // Ctrl-C (or a closed terminal) while a file is written is noted, not fatal: the temporary
  // file is removed, never left half-written beside the user's files.
  const latch = target === undefined ? undefined : latchInterrupts();
  let counts;
  let committed: "written" | "exists" | undefined;
  try {
    if (target === undefined) write = bufferedStdout(ctx);
    else {
      file = openStreamedFile(target);
      // As on a terminal (DESIGN.md 5.17): a file read with cat or less must not drive it either.
      write = (text) => file!.write(visibleText(text));
    }
    const view = format === "html" ? htmlView(write) : markdownView(write);
    counts = exportSession(source.path, view, { header, subagents, redactor });
    write("");
    // The export runs without a pause: a signal that came meanwhile is delivered here.
    await new Promise((resolve) => setTimeout(resolve, 0));
    latch?.check();
    // Still latched: the last flush and the sync take a moment, and a Ctrl-C then must not end
    // claudecm with the temporary file left; the export is whole, so it is put in place.
    committed = file?.commit({ replace: options.force === true });
  } catch (error) {
    file?.abort();
    latch?.release();
    throw error;
  }
  latch?.release();
  if (committed === "exists") {
    throw new UserError(
      `${target} appeared while the export was written; nothing was replaced (--force replaces it)`,
    );
  }
  const result: ExportResult = {
    sessionId: source.guid,
    format,
    output: target ?? null,
    bytes: file?.bytes ?? null,
    source: source.where,
    sourcePath: source.path,
    turns: counts.turns,
    subagents: counts.subagents,
    skippedLines: counts.skippedLines,
    redacted: redactor?.count ?? null,
  };
  const lines = exportResultLines(result, { json: options.json === true });
  // Exported to stdout: what is said about it goes to stderr, so the export stays whole.
  for (const line of lines) (target === undefined ? ctx.err : ctx.out).line(line);
  return ExitCode.ok;
}

/** The `-o` target: refused before any reading when it is a folder or already there. */
function checkTarget(ctx: AppContext, options: ExportOptions): string {
  // An unset shell variable (-o "$OUT"): typedPath's own words are about folders.
  if (options.output!.trim() === "") throw new UsageError("-o needs a file name, and it was empty");
  const target = typedPath(ctx, options.output!);
  const probe = probePath(target);
  if (probe.kind === "unreadable") throw new UserError(`cannot write ${target}: ${probe.error}`);
  if (probe.kind === "directory") throw new UserError(`${target} is a folder; name a file`);
  if (probe.kind !== "missing" && !options.force) {
    throw new UserError(`${target} already exists; --force replaces it`);
  }
  const folder = ctx.paths.path.dirname(target);
  if (probePath(folder).kind !== "directory") {
    throw new UserError(`the folder ${folder} does not exist`);
  }
  const own = ownFolderOf(ctx, target);
  if (own !== undefined) {
    throw new UserError(
      `${target} is in ${own}, where claude and claudecm keep their own files; ` +
        "export writes only elsewhere",
    );
  }
  return target;
}

/**
 * The folder of claude's or claudecm's own files (transcripts, the registry,
 * the vault, credentials) that `target` would be written into, links
 * followed as the write follows them; undefined for anywhere else. `--force`
 * must never put an export over a transcript.
 */
function ownFolderOf(ctx: AppContext, target: string): string | undefined {
  const { path } = ctx.paths;
  const followed = realTarget(target);
  const landing = path.join(resolveRealPath(path.dirname(followed)), path.basename(followed));
  const under = (root: string) =>
    [root, resolveRealPath(root)].some((form) =>
      relocateUnder(landing, { from: form, to: form }, ctx.os) !== undefined
    );
  return [ctx.paths.claudeRoot, ctx.paths.cmHome, ctx.paths.claudeJsonFile].find(under);
}

function headerOf(
  source: ExportSource,
  { redactor, machine }: { redactor?: Redactor; machine: readonly string[] },
): ExportHeader {
  const facts = readExportFacts(source.path);
  const clean = (text: string) => redactor ? redactor.redact(text) : text;
  // claude keeps claudecm's `-n "<machine> - <name>"` as the title: the prefix is not its name.
  const read = [facts.customTitle, facts.aiTitle]
    .map((title) => title === undefined ? "" : withoutOwnPrefix(cleanName(title), machine))
    .find((title) => title !== "");
  const title = source.session?.desc || read || "Unnamed session";
  return {
    title: clean(cleanName(title)),
    sessionId: source.guid,
    folder: source.session?.dir ?? facts.cwd,
    firstTimestamp: facts.firstTimestamp,
    lastTimestamp: facts.lastTimestamp,
    contextTokens: facts.contextTokens,
    listedTokens: source.session?.tokens || undefined,
    model: facts.model,
    source: SOURCES[source.where],
  };
}

/** Gathers the export's pieces into large writes; `write("")` flushes. */
function bufferedStdout(ctx: AppContext): (text: string) => void {
  let pending: string[] = [];
  let size = 0;
  return (text) => {
    pending.push(text);
    size += text.length;
    if (size >= 256 * 1024 || text === "") {
      ctx.out.write(pending.join(""));
      pending = [];
      size = 0;
    }
  };
}
