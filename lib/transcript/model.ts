/**
 * The transcript entries claudecm reads, typed. Claude Code writes one JSON
 * object per line with a top-level `type`; new types appear often, so
 * {@linkcode toEntry} returns undefined for any type or shape it does not
 * know and the readers skip it.
 *
 * @module
 */

/** A text block of a message. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** A tool call in an assistant message. */
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool's answer, in the user message that follows the call. */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** Set when the tool failed (or the user refused it). */
  is_error?: boolean;
  /** The start of the result's text, enough to tell what went wrong. */
  text?: string;
}

/** Any other block (thinking, image, ...): kept only as its type. */
export interface OtherBlock {
  type: "other";
}

/** One block of a message's content. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

/** Fields of the conversational lines (user, assistant, system). */
export interface ConversationFields {
  uuid?: string;
  sessionId?: string;
  timestamp?: string;
  cwd?: string;
  gitBranch?: string;
  /** Subagent traffic written into the main transcript by older versions. */
  isSidechain?: boolean;
  /** Lines Claude Code injects itself (caveats, "Continue from where you left off."). */
  isMeta?: boolean;
}

/** A user line: a prompt, or the results of the previous tool calls. */
export interface UserEntry extends ConversationFields {
  type: "user";
  content: string | ContentBlock[];
  /** The summary written after a compaction, not something the user typed. */
  isCompactSummary?: boolean;
}

/** An assistant line: text and tool calls (one line per content block in practice). */
export interface AssistantEntry extends ConversationFields {
  type: "assistant";
  content: ContentBlock[];
  /** Set on synthetic error lines ("Prompt is too long", authentication failures). */
  isApiErrorMessage?: boolean;
}

/** A system line: `compact_boundary`, `local_command`, `turn_duration`, ... */
export interface SystemEntry extends ConversationFields {
  type: "system";
  subtype?: string;
  content?: string;
}

/** Metadata lines Claude Code re-appends near the end of the file. */
export interface AiTitleEntry {
  type: "ai-title";
  aiTitle: string;
}

/** The title the user chose (`-n NAME` or /rename). */
export interface CustomTitleEntry {
  type: "custom-title";
  customTitle: string;
}

/** The last prompt the user sent. */
export interface LastPromptEntry {
  type: "last-prompt";
  lastPrompt: string;
}

/** The input mode (`normal`, ...). */
export interface ModeEntry {
  type: "mode";
  mode: string;
}

/** The permission mode (`default`, `acceptEdits`, `plan`, `auto`, `bypassPermissions`). */
export interface PermissionModeEntry {
  type: "permission-mode";
  permissionMode: string;
}

/** Claude Code's record of the files it backed up before editing them. */
export interface FileHistorySnapshotEntry {
  type: "file-history-snapshot";
  /** Paths as Claude Code tracks them (usually relative to the project). */
  files: string[];
}

/** A prompt queued while Claude was busy, or its removal. */
export interface QueueOperationEntry {
  type: "queue-operation";
  operation: string;
  content?: string;
  timestamp?: string;
}

/** The one-line summary older versions wrote for a conversation branch. */
export interface SummaryEntry {
  type: "summary";
  summary: string;
}

/** Every entry type the model knows. */
export type Entry =
  | UserEntry
  | AssistantEntry
  | SystemEntry
  | AiTitleEntry
  | CustomTitleEntry
  | LastPromptEntry
  | ModeEntry
  | PermissionModeEntry
  | FileHistorySnapshotEntry
  | QueueOperationEntry
  | SummaryEntry;

/** The `type` values of {@linkcode Entry}. */
export const ENTRY_TYPES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "system",
  "ai-title",
  "custom-title",
  "last-prompt",
  "mode",
  "permission-mode",
  "file-history-snapshot",
  "queue-operation",
  "summary",
]);

type Json = Record<string, unknown>;

/** The typed entry of a parsed line, or undefined for a type or shape not modelled. */
export function toEntry(value: unknown): Entry | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case "user":
      return toUser(value);
    case "assistant":
      return toAssistant(value);
    case "system":
      return {
        type: "system",
        ...conversationFields(value),
        subtype: str(value.subtype),
        content: str(value.content),
      };
    case "ai-title":
      return typeof value.aiTitle === "string"
        ? { type: "ai-title", aiTitle: value.aiTitle }
        : undefined;
    case "custom-title":
      return typeof value.customTitle === "string"
        ? { type: "custom-title", customTitle: value.customTitle }
        : undefined;
    case "last-prompt":
      return typeof value.lastPrompt === "string"
        ? { type: "last-prompt", lastPrompt: value.lastPrompt }
        : undefined;
    case "mode":
      return typeof value.mode === "string" ? { type: "mode", mode: value.mode } : undefined;
    case "permission-mode":
      return typeof value.permissionMode === "string"
        ? { type: "permission-mode", permissionMode: value.permissionMode }
        : undefined;
    case "file-history-snapshot":
      return toSnapshot(value);
    case "queue-operation":
      return typeof value.operation === "string"
        ? {
          type: "queue-operation",
          operation: value.operation,
          content: str(value.content),
          timestamp: str(value.timestamp),
        }
        : undefined;
    case "summary":
      return typeof value.summary === "string"
        ? { type: "summary", summary: value.summary }
        : undefined;
    default:
      return undefined;
  }
}

function toUser(value: Json): UserEntry | undefined {
  const message = value.message;
  if (!isObject(message)) return undefined;
  const content = typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
    ? message.content.map(toBlock)
    : undefined;
  if (content === undefined) return undefined;
  return {
    type: "user",
    ...conversationFields(value),
    content,
    isCompactSummary: value.isCompactSummary === true ? true : undefined,
  };
}

function toAssistant(value: Json): AssistantEntry | undefined {
  const message = value.message;
  if (!isObject(message)) return undefined;
  const content = typeof message.content === "string"
    ? [{ type: "text" as const, text: message.content }]
    : Array.isArray(message.content)
    ? message.content.map(toBlock)
    : undefined;
  if (content === undefined) return undefined;
  return {
    type: "assistant",
    ...conversationFields(value),
    content,
    isApiErrorMessage: value.isApiErrorMessage === true ? true : undefined,
  };
}

function toSnapshot(value: Json): FileHistorySnapshotEntry | undefined {
  const snapshot = value.snapshot;
  if (!isObject(snapshot)) return undefined;
  const backups = snapshot.trackedFileBackups;
  return {
    type: "file-history-snapshot",
    files: isObject(backups) ? Object.keys(backups) : [],
  };
}

function toBlock(block: unknown): ContentBlock {
  if (!isObject(block)) return { type: "other" };
  if (block.type === "text" && typeof block.text === "string") {
    return { type: "text", text: block.text };
  }
  if (block.type === "tool_use" && typeof block.name === "string") {
    return {
      type: "tool_use",
      id: str(block.id) ?? "",
      name: block.name,
      input: isObject(block.input) ? block.input : {},
    };
  }
  if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
    return {
      type: "tool_result",
      tool_use_id: block.tool_use_id,
      is_error: block.is_error === true ? true : undefined,
      text: resultText(block.content),
    };
  }
  return { type: "other" };
}

/** Longest piece of a tool result kept: results can be megabytes, messages need a line. */
const RESULT_TEXT_LIMIT = 2_000;

function resultText(content: unknown): string | undefined {
  const text = typeof content === "string"
    ? content
    : Array.isArray(content)
    ? content.map((part) => isObject(part) && typeof part.text === "string" ? part.text : "")
      .join("\n")
    : undefined;
  return text === undefined ? undefined : text.slice(0, RESULT_TEXT_LIMIT);
}

function conversationFields(value: Json): ConversationFields {
  return {
    uuid: str(value.uuid),
    sessionId: str(value.sessionId),
    timestamp: str(value.timestamp),
    cwd: str(value.cwd),
    gitBranch: str(value.gitBranch),
    isSidechain: value.isSidechain === true ? true : undefined,
    isMeta: value.isMeta === true ? true : undefined,
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
