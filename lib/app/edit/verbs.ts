/**
 * The list's edits as commands (issue 33.2): `claudecm rename N NAME`,
 * `delete N`, `archive N`, `unarchive N`. Each names its session through
 * the one resolver and changes it through the path the menu uses (R#, D#,
 * A#, U#), so the same re-checks and refusals hold; each has `--json`.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { archiveRow, renameRow, unarchiveRow } from "./row_changes.ts";
import { deleteWithConfirmation } from "./delete_session.ts";
import { namedTwice } from "./named_twice.ts";
import { reportChange } from "./edit_list.ts";
import { type ResolvedSession, resolveSession } from "../session/resolve_session.ts";
import { ExitCode, UsageError, UserError } from "../../core/errors.ts";
import type { Session } from "../../core/registry.ts";
import { safeJson } from "../../core/safe_text.ts";

/** What a verb was given: the session as typed, and whether to print JSON. */
export interface VerbOptions {
  ref: string;
  json?: boolean;
}

/** `claudecm rename N NAME`: R# from the command line. */
export async function runRename(
  ctx: AppContext,
  options: VerbOptions & { name: string },
): Promise<number> {
  const { session, number } = resolveSession(ctx, options.ref, { verb: "rename" });
  const done = await renameRow(ctx, session.guid, options.name);
  return report(ctx, { done, session, number, options }, {
    what: `Renamed: ${options.name}`,
    json: { status: "renamed", name: options.name, previousName: session.desc },
  });
}

/** `claudecm archive N`: A# from the command line. */
export async function runArchive(ctx: AppContext, options: VerbOptions): Promise<number> {
  const resolved = resolveSession(ctx, options.ref, { verb: "archive" });
  if (resolved.archived) throw new UserError(`'${resolved.session.desc}' is already archived`);
  // A second line naming it would take the row's place in the main list.
  if (namedTwice(ctx, resolved.session.guid, { out: ctx.err })) return ExitCode.failure;
  const done = await archiveRow(ctx, resolved.session.guid);
  return report(ctx, { ...resolved, done, options }, {
    what: `Archived: ${resolved.session.desc}`,
    json: { status: "archived" },
  });
}

/** `claudecm unarchive N` (N as list mode's V numbers them): U# from the command line. */
export async function runUnarchive(ctx: AppContext, options: VerbOptions): Promise<number> {
  const resolved = resolveSession(ctx, options.ref, { numbers: "archived" });
  if (!resolved.archived) {
    throw new UserError(`'${resolved.session.desc}' is not archived (it is #${resolved.number})`);
  }
  const done = await unarchiveRow(ctx, resolved.session.guid);
  return report(ctx, { ...resolved, done, options }, {
    what: `Unarchived: ${resolved.session.desc}`,
    json: { status: "unarchived", number: 1 },
  });
}

/**
 * `claudecm delete N`: D# from the command line. In a terminal it shows
 * what it removes and asks for a typed `delete`, as D# does; without one
 * (or with `--json`, which never asks) it refuses unless `--yes`.
 */
export async function runDelete(
  ctx: AppContext,
  options: VerbOptions & { yes?: boolean },
): Promise<number> {
  const { session, number } = resolveSession(ctx, options.ref, { verb: "delete" });
  if (options.yes !== true && (options.json === true || !ctx.interactive)) {
    throw new UsageError(
      `delete asks before it deletes, and ${
        options.json ? "--json never asks" : "there is no terminal to ask in"
      }: to delete '${session.desc}' without asking, claudecm delete ${options.ref} --yes`,
    );
  }
  const outcome = await deleteWithConfirmation(ctx, session, {
    confirmed: options.yes === true,
    out: options.json ? ctx.err : ctx.out,
    err: ctx.err,
  });
  if (options.json) {
    ctx.out.line(safeJson({ sessionId: session.guid, name: session.desc, number, ...outcome }, 2));
  }
  return outcome.status === "deleted" ? ExitCode.ok : ExitCode.failure;
}

/** What a row change did, said as the menu says it, or as JSON. */
function report(
  ctx: AppContext,
  { done, session, number, options }: Omit<ResolvedSession, "archived"> & {
    done: boolean;
    session: Session;
    options: VerbOptions;
  },
  { what, json }: { what: string; json: Record<string, unknown> },
): number {
  if (options.json) {
    const body = done ? json : { status: "changed-elsewhere" };
    ctx.out.line(safeJson({ sessionId: session.guid, name: session.desc, number, ...body }, 2));
  } else {
    // "Nothing done" is a failure: said on stderr, as every refusal is.
    reportChange(done ? ctx.out : ctx.err, { done, what, session });
  }
  return done ? ExitCode.ok : ExitCode.failure;
}
