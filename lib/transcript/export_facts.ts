/**
 * What an export's header says of a session, read without a full pass: the
 * first timestamp and folder from the head, titles and last activity from the
 * tail (metadata lines sit in the last 64 KB, DESIGN.md 4), and the context
 * size at the end from the last assistant line that reports its usage. The
 * session's subagent transcripts (`<id>/subagents/agent-*.jsonl`) are listed
 * with the prompt each was given, so a Task call can be matched to its own.
 *
 * @module
 */

import { isFile, readDirOrEmpty } from "../core/fs_checks.ts";
import { scanLines } from "./lines.ts";
import { peekString, peekType } from "./scan.ts";
import { readFromEnd, readTail, splitLines } from "./tail.ts";

/** The header's facts. */
export interface ExportFacts {
  customTitle?: string;
  aiTitle?: string;
  /** The first recorded working folder. */
  cwd?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  /** Tokens in context at the last assistant turn (input, cache and output). */
  contextTokens?: number;
  model?: string;
}

/** A subagent transcript of a session. */
export interface SubagentFile {
  agentId: string;
  path: string;
  /** The prompt it was started with (its first user line's text). */
  prompt?: string;
}

const HEAD_BYTES = 256 * 1024;
const decoder = new TextDecoder();

/** The header facts of the transcript at `path`. */
export function readExportFacts(path: string): ExportFacts {
  const facts: ExportFacts = {};
  let read = 0;
  scanLines(path, (line) => {
    read += line.length + 1;
    if (!line.oversized) {
      facts.firstTimestamp ??= peekString(line, "timestamp");
      facts.cwd ??= peekString(line, "cwd");
    }
    return (facts.firstTimestamp === undefined || facts.cwd === undefined) && read < HEAD_BYTES;
  });
  const tail = readTail(path);
  facts.customTitle = tail.customTitle;
  facts.aiTitle = tail.aiTitle;
  facts.lastTimestamp = tail.lastTimestamp;
  facts.cwd ??= tail.cwd;
  const usage = lastUsage(path);
  facts.contextTokens = usage?.tokens;
  facts.model = usage?.model;
  return facts;
}

/** The usage of the last assistant line that has one, from a growing window at the end. */
function lastUsage(path: string): { tokens: number; model?: string } | undefined {
  return readFromEnd(path, {}, (tail) => {
    const lines = splitLines(tail.bytes, tail.partialFirst);
    for (let i = lines.length - 1; i >= 0; i--) {
      if (peekType(lines[i]) !== "assistant") continue;
      const found = usageOf(lines[i]);
      if (found !== undefined) return { value: found, enough: true };
    }
    return { value: undefined, enough: false };
  });
}

function usageOf(bytes: Uint8Array): { tokens: number; model?: string } | undefined {
  try {
    const value = JSON.parse(decoder.decode(bytes));
    const message = value?.message;
    const usage = message?.usage;
    if (typeof usage !== "object" || usage === null || message.model === "<synthetic>") {
      return undefined;
    }
    const count = (key: string) => typeof usage[key] === "number" ? usage[key] as number : 0;
    const tokens = count("input_tokens") + count("cache_creation_input_tokens") +
      count("cache_read_input_tokens") + count("output_tokens");
    return tokens > 0
      ? { tokens, model: typeof message.model === "string" ? message.model : undefined }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The subagent transcripts in `<sidecar>/subagents/`, by file name. */
export function listSubagents(
  sidecar: string,
  join: (...parts: string[]) => string,
): SubagentFile[] {
  const folder = join(sidecar, "subagents");
  return readDirOrEmpty(folder)
    .filter((entry) =>
      /^agent-.+\.jsonl$/.test(entry.name) &&
      // A link to a file elsewhere is one too, as a session's own transcript may be.
      (entry.isFile || (entry.isSymlink && isFile(join(folder, entry.name))))
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const path = join(folder, name);
      return {
        agentId: name.slice("agent-".length, -".jsonl".length),
        path,
        prompt: firstPrompt(path),
      };
    });
}

/** The text of the first user line of a subagent transcript. */
function firstPrompt(path: string): string | undefined {
  let prompt: string | undefined;
  try {
    scanLines(path, (line) => {
      if (line.oversized || peekType(line) !== "user") return true;
      try {
        const content = JSON.parse(decoder.decode(line.bytes))?.message?.content;
        prompt = typeof content === "string"
          ? content
          : Array.isArray(content)
          ? content.map((part) => typeof part?.text === "string" ? part.text : "").join("\n")
          : undefined;
      } catch {
        // A bad first line: matched by id only.
      }
      return false;
    });
  } catch {
    // Unreadable: matched by id only, and the export says it could not read it.
  }
  return prompt;
}
