/**
 * Whether a session died of context overflow, decided from the end of its
 * transcript only (recover-session.md step 1b). Walking back from the last
 * line, the first death signal met means dead; anything productive met first
 * (a model reply, a tool result, a successful compaction) means the session
 * went on. Lines that are neither (metadata, prompts typed into the dead
 * session, other API errors) are passed over, up to 20 conversation lines.
 *
 * Death signals (DESIGN.md section 4): a synthetic assistant line
 * (`isApiErrorMessage`) saying "Prompt is too long" or "Conversation too
 * long", and a failed /compact ("Error during compaction") in a system or
 * local-command line. Text a user typed or a model wrote that merely quotes
 * these words is not a signal.
 *
 * @module
 */

import { type Entry, toEntry } from "./model.ts";
import { peekString, peekToolResultIds, peekTrue, peekType } from "./scan.ts";
import { readFromEnd, splitLines, type TailOptions } from "./tail.ts";
import { formatSize } from "../core/format.ts";

/** Which overflow killed the session. */
export type DeathSignal = "prompt-too-long" | "conversation-too-long" | "compaction-error";

/** The strings a death signal carries, as `grep` would look for them. */
export const DEATH_STRINGS: readonly string[] = [
  "Prompt is too long",
  "Conversation too long",
  "Error during compaction",
];

/** What the end of a transcript says. */
export interface DeathCheck {
  /** `unknown`: no complete line in the largest window read (one huge last line). */
  verdict: "dead" | "alive" | "subagent" | "unknown";
  signal?: DeathSignal;
  /** Timestamp of the last line that has one (the time of death for a dead session). */
  lastTimestamp?: string;
  /** The latest `cwd` and `gitBranch` the tail records. */
  cwd?: string;
  gitBranch?: string;
  /** The `slug` field some Claude Code versions write on conversation lines. */
  slug?: string;
  /** The latest titles in the tail's metadata: the user's, and Claude's generated one. */
  customTitle?: string;
  aiTitle?: string;
  /** What was odd about the tail (half-written last line, unreadable lines). */
  notes: string[];
}

/** Options for {@linkcode checkDeath}: the tail windows, and how far back to look. */
export interface DeathCheckOptions extends TailOptions {
  /** Conversation lines looked at before giving up on finding a signal; 20 by default. */
  lines?: number;
}

const CONVERSATION = new Set(["user", "assistant", "system"]);
const decoder = new TextDecoder();

/**
 * The death signal a text carries, if any. Case is ignored: besides the
 * synthetic "Prompt is too long", some versions record the API's own
 * "prompt is too long: 210000 tokens > 200000 maximum".
 */
function deathSignalIn(text: string): DeathSignal | undefined {
  const lower = text.toLowerCase();
  if (lower.includes("error during compaction")) return "compaction-error";
  if (lower.includes("conversation too long")) return "conversation-too-long";
  if (lower.includes("prompt is too long")) return "prompt-too-long";
  return undefined;
}

/** The death signal an entry is, if it is one (see the module doc for what counts). */
export function deathSignalOf(entry: Entry): DeathSignal | undefined {
  if (entry.type === "assistant") {
    if (!entry.isApiErrorMessage) return undefined;
    return deathSignalIn(
      entry.content.map((block) => block.type === "text" ? block.text : "").join("\n"),
    );
  }
  if (entry.type === "system") {
    return entry.content === undefined ? undefined : deathSignalIn(entry.content);
  }
  if (entry.type === "user" && typeof entry.content === "string") {
    // Older versions wrote local command output as user lines.
    return entry.content.includes("<local-command-stderr>")
      ? deathSignalIn(entry.content)
      : undefined;
  }
  return undefined;
}

/** Read the end of the transcript at `path` and say whether it died of overflow. */
export function checkDeath(path: string, options: DeathCheckOptions = {}): DeathCheck {
  return readFromEnd(path, options, (tail) => {
    const walk = walkBack(tail.bytes, tail.partialFirst, options.lines ?? 20);
    if (tail.last && tail.partialFirst && walk.seen === 0) {
      walk.check.verdict = "unknown";
      walk.check.notes.push(`no complete line in the last ${formatSize(tail.bytes.length)}`);
    }
    return { value: walk.check, enough: walk.decided };
  });
}

interface Walk {
  check: DeathCheck;
  /** The verdict holds whatever lies before the window. */
  decided: boolean;
  /** Conversation lines looked at. */
  seen: number;
}

function walkBack(bytes: Uint8Array, partialFirst: boolean, maxLines: number): Walk {
  const check: DeathCheck = { verdict: "alive", notes: [] };
  const lines = splitLines(bytes, partialFirst);
  const terminated = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a;
  let seen = 0;
  let sidechain = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (i === lines.length - 1 && !terminated && parseLine(line) === null) {
      check.notes.push("last line half-written");
      continue;
    }
    const type = peekType(line);
    if (type === undefined) {
      check.notes.push("a line near the end is not JSON");
      continue;
    }
    check.lastTimestamp ??= peekString(line, "timestamp");
    if (type === "custom-title" || type === "ai-title") readTitle(check, line);
    if (!CONVERSATION.has(type)) continue;
    check.cwd ??= peekString(line, "cwd");
    check.gitBranch ??= peekString(line, "gitBranch");
    check.slug ??= peekString(line, "slug");
    seen++;
    if (peekTrue(line, "isSidechain")) {
      sidechain++;
    } else {
      const outcome = judge(type, line);
      if (outcome === "productive") return { check, decided: true, seen };
      if (outcome !== undefined && outcome !== "neutral") {
        check.verdict = "dead";
        check.signal = outcome;
        return { check, decided: true, seen };
      }
    }
    if (seen >= maxLines) break;
  }
  if (seen > 0 && sidechain === seen) check.verdict = "subagent";
  return { check, decided: seen >= maxLines, seen };
}

/** What one conversation line says, peeking before parsing (productive lines can be huge). */
function judge(type: string, line: Uint8Array): "productive" | "neutral" | DeathSignal {
  if (type === "assistant" && !peekTrue(line, "isApiErrorMessage")) return "productive";
  if (type === "user" && (peekTrue(line, "isCompactSummary") || peekToolResultIds(line))) {
    return "productive";
  }
  if (type === "system" && peekString(line, "subtype") === "compact_boundary") {
    return "productive";
  }
  const entry = parseLine(line);
  if (!entry) return "neutral";
  if (entry.type === "user" && entry.isCompactSummary) return "productive";
  if (
    entry.type === "user" && typeof entry.content !== "string" &&
    entry.content.some((block) => block.type === "tool_result")
  ) {
    return "productive";
  }
  return deathSignalOf(entry) ?? "neutral";
}

function readTitle(check: DeathCheck, line: Uint8Array): void {
  const entry = parseLine(line);
  if (entry?.type === "custom-title") check.customTitle ??= entry.customTitle;
  else if (entry?.type === "ai-title") check.aiTitle ??= entry.aiTitle;
}

/** The typed entry of a line; null when it is not JSON, undefined when not modelled. */
function parseLine(line: Uint8Array): Entry | undefined | null {
  try {
    return toEntry(JSON.parse(decoder.decode(line)));
  } catch {
    return null;
  }
}
