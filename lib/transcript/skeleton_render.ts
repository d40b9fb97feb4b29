/**
 * The skeleton as markdown: the sections a refreshed session reads first
 * (spec 11.14; the section names of the old `extract-skeleton.mjs`).
 *
 * @module
 */

import type { SkeletonData } from "./skeleton.ts";
import { skippedLinesNote } from "./entries.ts";

/** Render `data` as the `<guid>-skeleton.md` text, titled with `desc`. */
export function renderSkeleton(data: SkeletonData, desc: string): string {
  const out: string[] = [`# Session Refresh: ${desc}`, ""];
  const skipped = skippedLinesNote(data.report);
  if (skipped !== null) out.push(`Note: ${skipped}; what they held is not below.`, "");
  const section = (title: string, lines: string[], empty: string) => {
    out.push(`## ${title}`, "", ...(lines.length > 0 ? lines : [empty]), "");
  };
  section("Original Intent", data.intent === undefined ? [] : [data.intent], "(none found)");
  section(
    `Files Modified (${data.modified.size})`,
    [...data.modified].map(([file, tools]) => `- ${file} (${[...tools].join(", ")})`),
    "(none)",
  );
  section(`Files Read (${data.read.length})`, data.read.map((file) => `- ${file}`), "(none)");
  section("Marked Important", data.important, "(none)");
  const errorCount = data.errors.reduce((sum, group) => sum + group.count, 0);
  section(
    `Errors Encountered (${errorCount})`,
    data.errors.map((group) =>
      `- ${group.tool} on ${group.target}` +
      (group.count > 1 ? ` (${group.count} times, potentially unresolved)` : "") +
      (group.lastMessage === "" ? "" : `: ${group.lastMessage}`)
    ),
    "(none)",
  );
  section(
    "Recent Context",
    data.recent.flatMap((turn, i) => [
      ...(i > 0 ? [""] : []),
      `**${turn.role === "user" ? "User" : "Assistant"}:** ${turn.text}`,
    ]),
    "(none)",
  );
  return out.join("\n");
}
