/**
 * List mode (spec 11.1): the list, a footer offering exactly the keys the
 * loop accepts, and a prompt. A number resumes (spec 11.9); E edits the list
 * (11.10), V shows the archived sessions (11.11), M changes the machine
 * name; other text offers a new project (11.8). Enter, `q` or the end of
 * input quits.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import { viewArchived } from "../edit/archived_view.ts";
import { editList } from "../edit/edit_list.ts";
import { type LaunchSettings, prepareLaunch } from "../launch/launch_setup.ts";
import { changeMachineName } from "../launch/change_machine_name.ts";
import { resumePicked } from "../resume/resume_picked.ts";
import { offerNewProject } from "../new/new_project.ts";
import { showList } from "../session/show_list.ts";
import { warnMalformedLines } from "./malformed_warning.ts";
import { ExitCode } from "../../core/errors.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { archivedSessions, mainSessions } from "../../core/registry.ts";
import { cleanName } from "../../core/safe_text.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { NO_SESSIONS } from "../../ui/session_list.ts";

/** Run list mode until the user quits or picks; returns the exit code. */
export async function runListMode(ctx: AppContext): Promise<number> {
  const setup = await prepareLaunch(ctx, { requireClaude: false });
  if ("reexecExitCode" in setup) return setup.reexecExitCode;
  let settings = setup.settings;
  warnMalformedLines(ctx, readRegistry(ctx.paths));
  while (true) {
    const registry = readRegistry(ctx.paths);
    const sessions = mainSessions(registry);
    const archivedCount = archivedSessions(registry).length;
    if (sessions.length === 0 && archivedCount === 0) {
      ctx.out.line(`  ${NO_SESSIONS}`);
      return ExitCode.ok;
    }
    showList(ctx, sessions);
    showFooter(ctx, { settings, archivedCount });
    ctx.out.line();
    const answer = (ctx.prompter.ask("  Pick a session (Enter to quit): ") ?? "").trim();
    if (answer === "" || /^q$/i.test(answer)) return ExitCode.ok;
    if (/^e$/i.test(answer)) {
      // Every change there is saved: said here, before anything is typed.
      if (!refusedBeforeAsking(ctx, "Editing the list")) await editList(ctx);
    } else if (/^v$/i.test(answer)) {
      await viewArchived(ctx);
    } else if (/^m$/i.test(answer)) {
      settings = changeMachineName(ctx, settings);
    } else if (/^\d+$/.test(answer)) {
      // A typed number is never a project title, even one too large to be a position.
      const number = parseWholeNumber(answer);
      const session = number === null ? undefined : sessions[number - 1];
      if (session !== undefined) return await resumePicked(ctx, { settings, session });
      ctx.out.line(`  No session #${answer}: the list has ${sessions.length}.`, "red");
    } else {
      // A pasted title may carry escape sequences; the registry and claude's -n keep none.
      const launched = await offerNewProject(ctx, { settings, title: cleanName(answer) });
      if (launched !== null) return launched;
    }
  }
}

/** Only the keys the loop accepts (spec 9): V only when there is something archived. */
function showFooter(
  ctx: AppContext,
  { settings, archivedCount }: { settings: LaunchSettings; archivedCount: number },
): void {
  ctx.out.line();
  ctx.out.line("  E. Edit this list");
  if (archivedCount > 0) ctx.out.line(`  V. View archived (${archivedCount})`);
  ctx.out.line(`  M. Machine name (${settings.machineName})`);
}
