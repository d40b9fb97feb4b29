/**
 * A family as text: one line per session, indented under the one it came
 * from, with the step between them, its name, its id and its marks (its list
 * number, archived, not in the list, only in the vault, set aside, deleted),
 * and a line under it for each move between folders.
 *
 * @module
 */

import type { LinkType, TreeRow } from "../../core/family.ts";
import type { TranscriptPlace } from "../session/session_transcripts.ts";

/** A member of a family, as `--json` prints it. */
export interface FamilyNode {
  id: string;
  name: string | null;
  /** The registered folder, when the list has it. */
  folder: string | null;
  /** Its number in `claudecm list`, or null. */
  listNumber: number | null;
  archived: boolean;
  /** Where its transcript is: claude's folders, only the vault, claudecm's backup, nowhere. */
  transcript: TranscriptPlace;
  transcriptPath: string | null;
  moves: Array<{ from: string; to: string; at: string }>;
}

/** How a link reads between a parent and its child. */
const VIA: Record<LinkType, string> = {
  branch: "branched (/branch)",
  "continued-in": "continued in",
  "subagent-fork": "subagent forked its context",
  fork: "forked (claude went on under a new id)",
  "fork-session": "branched (--fork-session)",
  refresh: "refreshed into",
  trim: "trimmed into",
};

/** The family's lines. */
export function familyText(rows: readonly TreeRow[], nodes: Map<string, FamilyNode>): string[] {
  const lines: string[] = [];
  rows.forEach((row, index) => {
    const node = nodes.get(row.id);
    const indent = row.ancestorsLast.map((last) => last ? "   " : "│  ").join("");
    const lead = row.depth === 0 ? "" : `${indent}${row.last ? "└─ " : "├─ "}`;
    const via = row.via === undefined ? "" : `${VIA[row.via]}: `;
    const body = node === undefined ? row.id : describe(node);
    lines.push(`${lead}${via}${body}${row.repeated ? " (shown above)" : ""}`);
    if (row.repeated || node === undefined) return;
    // Between a session and its children, the line down to them runs past its moves.
    const children = (rows[index + 1]?.depth ?? -1) > row.depth ? "│  " : "   ";
    const under = row.depth === 0 ? children : `${indent}${row.last ? "   " : "│  "}${children}`;
    for (const move of node.moves) lines.push(`${under}moved from ${move.from} to ${move.to}`);
  });
  return lines;
}

function describe(node: FamilyNode): string {
  const marks: string[] = [];
  if (node.listNumber !== null) marks.push(`#${node.listNumber}`);
  else if (node.archived) marks.push("archived");
  else marks.push("not in the list");
  if (node.transcript === "vault") marks.push("claude deleted it, the vault keeps it");
  if (node.transcript === "backup") marks.push("set aside in claudecm's backup");
  if (node.transcript === "none") marks.push("deleted");
  return `${node.name ?? "(no name)"}  ${node.id}  [${marks.join(", ")}]`;
}
