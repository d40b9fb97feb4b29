/**
 * What an export shows, in order, handed to a view as it is read: a heading
 * when the speaker changes (a line of tool results belongs to Claude's turn),
 * prompts, Claude's text, collapsed thinking and injected text, each tool
 * call with its result, images, compactions, and a subagent's conversation
 * right after the call that ran it (matched by the id its result names, else
 * by its prompt); subagents no call was matched to come at the end. With a
 * redactor, every piece of transcript text passes through it first.
 *
 * @module
 */

import type { Redactor } from "../../core/redact.ts";
import type { ReadReport } from "../../transcript/entries.ts";
import { skippedLinesNote } from "../../transcript/entries.ts";
import {
  type ExportBlock,
  type ExportImage,
  type ExportItem,
  type ExportTurn,
  readExportItems,
} from "../../transcript/export_read.ts";
import type { SubagentFile } from "../../transcript/export_facts.ts";
import type { ExportHeader, ExportView } from "./render.ts";
import { toolCallView, toolResultView } from "./tool_view.ts";

/** What {@linkcode exportSession} went through. */
export interface ExportCounts {
  /** Headings written: turns of the main conversation and of its subagents. */
  turns: number;
  /** Lines skipped in the main transcript and its subagents'. */
  skippedLines: number;
  /** The subagent conversations included. */
  subagents: number;
}

/** Options for {@linkcode exportSession}. */
export interface ExportSessionOptions {
  header: ExportHeader;
  subagents: SubagentFile[];
  redactor?: Redactor;
}

const EVENT_LABELS: Record<string, string> = {
  compact_boundary: "Conversation compacted",
  local_command: "Command output",
  informational: "Note",
};

/** Write the transcript at `path` through `view`. */
export function exportSession(
  path: string,
  view: ExportView,
  options: ExportSessionOptions,
): ExportCounts {
  const clean = options.redactor
    ? (text: string) => options.redactor!.redact(text)
    : (text: string) => text;
  const counts: ExportCounts = { turns: 0, skippedLines: 0, subagents: 0 };
  const unused = new Map(options.subagents.map((agent) => [agent.agentId, agent]));
  const unreadable: string[] = [];
  let skipped: string | null = null;
  let subagentSkipped = 0;

  const runSubagent = (agent: SubagentFile, label: string) => {
    unused.delete(agent.agentId);
    counts.subagents++;
    view.subagentBegin(clean(label));
    try {
      const report = readConversation(agent.path);
      subagentSkipped += report.corrupt + report.oversized;
    } catch {
      unreadable.push(agent.agentId);
    }
    view.subagentEnd();
  };

  /** One transcript's items, with its own speaker and tool-call state. */
  const readConversation = (file: string): ReadReport => {
    let speaker: "user" | "assistant" | undefined;
    let inSidechain = false;
    const tools = new Map<string, { name: string; prompt?: string; label?: string }>();
    const heading = (turn: ExportTurn, who: "user" | "assistant") => {
      if (speaker === who) return;
      speaker = who;
      counts.turns++;
      view.heading(who, turn.timestamp);
    };
    const block = (turn: ExportTurn, part: ExportBlock) => {
      switch (part.kind) {
        case "text":
          if (turn.meta) view.collapsed("Added by Claude Code", clean(part.text));
          else if (turn.compactSummary) {
            view.collapsed("Summary written at compaction", clean(part.text));
          } else {
            heading(turn, turn.role);
            view.text(turn.role, clean(part.text));
          }
          return;
        case "thinking":
          heading(turn, turn.role);
          view.collapsed("Thinking", clean(part.text));
          return;
        case "image":
          heading(turn, turn.role);
          view.image(cleanImage(part.image, clean));
          return;
        case "omitted":
          heading(turn, turn.role);
          view.omitted(clean(part.what));
          return;
        case "tool_use": {
          heading(turn, "assistant");
          const prompt = typeof part.input.prompt === "string" ? part.input.prompt : undefined;
          const label = typeof part.input.description === "string"
            ? part.input.description
            : undefined;
          tools.set(part.id, { name: part.name, prompt, label });
          const call = toolCallView(clean(part.name), cleanValue(part.input, clean));
          // Input shown as JSON: a key and its value read together ("Authorization": "Bearer ..."),
          // which each value alone does not show.
          if (call.code?.language === "json") call.code.text = clean(call.code.text);
          view.toolCall(call);
          return;
        }
        case "tool_result": {
          const call = tools.get(part.toolUseId);
          view.toolResult(toolResultView(
            { text: clean(part.text), isError: part.isError },
            call === undefined ? undefined : clean(call.name),
          ));
          for (const image of part.images) view.image(cleanImage(image, clean));
          const agent = (part.agentId !== undefined ? unused.get(part.agentId) : undefined) ??
            (call?.prompt === undefined
              ? undefined
              : [...unused.values()].find((agent) => agent.prompt === call.prompt));
          if (agent !== undefined) {
            runSubagent(agent, call?.label ?? agent.agentId);
            // What follows is the main conversation's again: a heading says whose.
            speaker = undefined;
          }
          return;
        }
      }
    };
    const onItem = (item: ExportItem) => {
      if (item.kind === "event") {
        speaker = undefined;
        const label = EVENT_LABELS[item.event.subtype] ?? item.event.subtype;
        const text = item.event.text === label ? "" : clean(item.event.text);
        view.event(label, text, item.event.timestamp);
        return;
      }
      const turn = item.turn;
      if (turn.sidechain !== inSidechain) {
        // Older versions wrote a subagent's lines into the main transcript.
        if (turn.sidechain) view.subagentBegin("sidechain");
        else view.subagentEnd();
        inSidechain = turn.sidechain;
        speaker = undefined;
      }
      for (const part of turn.blocks) block(turn, part);
    };
    const report = readExportItems(file, onItem);
    if (inSidechain) view.subagentEnd();
    return report;
  };

  view.begin(options.header);
  const report = readConversation(path);
  counts.skippedLines += report.corrupt + report.oversized;
  skipped = skippedLinesNote(report);
  for (const agent of [...unused.values()]) runSubagent(agent, `${agent.agentId} (no call found)`);
  counts.skippedLines += subagentSkipped;
  view.end({ skipped, redacted: options.redactor?.count, unreadable, subagentSkipped });
  return counts;
}

/** Every string in a tool's input through `clean`. */
/** An image's URL, the one text an image carries, made safe and redacted as any text is. */
function cleanImage(image: ExportImage, clean: (text: string) => string): ExportImage {
  return image.url === undefined ? image : { ...image, url: clean(image.url) };
}

function cleanValue<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === "string") return clean(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, clean)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, cleanValue(item, clean)]),
    ) as T;
  }
  return value;
}
