/**
 * The capsule as markdown, `recall`'s default output: a header, the next
 * move, every divergence, then the records in transcript order, each with
 * its status tag and outcome. Text from the transcript is put on one line
 * so it cannot break the document's structure.
 *
 * @module
 */

import { oneLine } from "../../transcript/tools.ts";
import { type Capsule, countStatuses, divergenceNote, recordId } from "./capsule.ts";
import type { TaggedRecord } from "./tag.ts";

/** Render `capsule` as markdown, ending with a newline. */
export function renderCapsule(capsule: Capsule): string {
  const lines: string[] = [];
  lines.push(`# Recall: ${oneLine(capsule.title ?? capsule.sessionId, 120)}`, "");
  lines.push(`- Session: \`${capsule.sessionId}\` (${capsule.source.path})`);
  if (capsule.source.picked) {
    const when = capsule.source.picked.lastActivity ?? "unknown";
    lines.push(
      `- Picked with --last: the newest session here that is not live (last active ${when})`,
    );
  }
  if (capsule.cwd) lines.push(`- Folder: ${capsule.cwd}`);
  if (capsule.branch.recorded || capsule.branch.current) {
    lines.push(
      `- Branch: recorded \`${capsule.branch.recorded ?? "none"}\`, now \`${
        capsule.branch.current ?? "unknown"
      }\``,
    );
  }
  if (capsule.lastActivity) lines.push(`- Last activity: ${capsule.lastActivity}`);
  const counts = countStatuses(capsule.records);
  const scope = capsule.scope === undefined
    ? ""
    : ` in scope "${oneLine(capsule.scope, 80)}" (of ${capsule.total})`;
  lines.push(
    `- Records: ${capsule.records.length}${scope}: ${counts.completed} completed, ` +
      `${
        counts["in-progress"]
      } in-progress, ${counts.blocked} blocked, ${counts.diverged} diverged`,
  );
  if (capsule.live) {
    lines.push(
      "- This session is open in a running claude: its last records may still be under way.",
    );
  } else if (capsule.truncated) {
    lines.push("- The transcript ends in a half-written line: claude stopped mid-write.");
  }
  lines.push("", "## Next move", "", capsule.nextMove.action, "");
  const from = capsule.nextMove.record ? `${capsule.nextMove.record}: ` : "";
  lines.push(`_${from}${capsule.nextMove.reason}_`, "");
  lines.push(`## Divergences (${capsule.divergences.length})`, "");
  if (capsule.divergences.length === 0) {
    lines.push("None: every record checked matches the live state.");
  }
  for (const { tagged, inScope } of capsule.divergences) {
    const outside = inScope ? "" : " (outside the scope)";
    lines.push(
      `- **${recordId(tagged)}** ${oneLine(tagged.record.action, 160)}: ${
        divergenceNote(tagged)
      }${outside}`,
    );
  }
  lines.push("", "## Records", "");
  if (capsule.records.length === 0) lines.push("None in scope.");
  for (const tagged of capsule.records) lines.push(recordLine(tagged));
  // What to do next with the capsule (issue 31 item 11).
  lines.push(
    "",
    "Next: give this capsule to claude (a new session in the folder: claudecm new) and start " +
      "with its next move.",
  );
  return `${lines.join("\n")}\n`;
}

function recordLine(tagged: TaggedRecord): string {
  const r = tagged.record;
  const result = r.result && r.outcome !== "success" ? `: ${oneLine(r.result, 160)}` : "";
  return `- ${recordId(tagged)} [${tagged.status}] ${
    oneLine(r.action, 160)
  } — ${r.outcome}${result}` +
    ` (${tagged.reason})`;
}
