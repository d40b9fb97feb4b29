/**
 * What in a transcript is the user's and the assistant's own words, and what
 * is noise: lines Claude Code injects (isMeta, compaction summaries), slash
 * command wrappers, `<system-reminder>` blocks, local command output, tool
 * results, and subagent (sidechain) traffic.
 *
 * @module
 */

import type { AssistantEntry, ConversationFields, UserEntry } from "./model.ts";

/** Slash commands that manage the session rather than ask for work. */
const HOUSEKEEPING_COMMANDS = new Set([
  "add-dir",
  "agents",
  "clear",
  "compact",
  "config",
  "context",
  "continue",
  "cost",
  "doctor",
  "exit",
  "export",
  "help",
  "hooks",
  "ide",
  "login",
  "logout",
  "mcp",
  "memory",
  "model",
  "permissions",
  "quit",
  "recover",
  "rename",
  "resume",
  "rewind",
  "status",
  "statusline",
  "theme",
  "usage",
  "vim",
]);

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?(<\/system-reminder>|$)/g;
const LOCAL_COMMAND = /^\s*<(local-command-stdout|local-command-stderr|local-command-caveat)>/;
const COMMAND_NAME = /<command-name>\s*\/?([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;

/** Whether a line belongs to a subagent's branch rather than the main thread. */
export function isSidechain(entry: ConversationFields): boolean {
  return entry.isSidechain === true;
}

/**
 * The words of a user line as the user typed them, or undefined when the
 * line is not a real ask: injected (isMeta), a compaction summary, tool
 * results, local command output, an interruption marker, or a housekeeping
 * slash command. A slash command with work in it reads `/name args`.
 */
export function realAsk(entry: UserEntry): string | undefined {
  if (entry.isMeta || entry.isCompactSummary || isSidechain(entry)) return undefined;
  const raw = typeof entry.content === "string"
    ? entry.content
    : entry.content.map((block) => block.type === "text" ? block.text : "").join("\n");
  if (typeof entry.content !== "string" && entry.content.some((b) => b.type === "tool_result")) {
    return undefined;
  }
  return cleanPrompt(raw);
}

/** A prompt without wrappers and reminders; undefined when nothing real is left. */
export function cleanPrompt(text: string): string | undefined {
  if (LOCAL_COMMAND.test(text)) return undefined;
  const command = COMMAND_NAME.exec(text);
  if (command) {
    const name = command[1].trim();
    if (HOUSEKEEPING_COMMANDS.has(name)) return undefined;
    const args = COMMAND_ARGS.exec(text)?.[1].trim() ?? "";
    return args === "" ? `/${name}` : `/${name} ${args}`;
  }
  const cleaned = stripReminders(text).trim();
  if (cleaned === "" || INTERRUPTED.test(cleaned)) return undefined;
  return cleaned;
}

/** The text an assistant line shows the user (no thinking, no tool calls, no reminders). */
export function assistantText(entry: AssistantEntry): string | undefined {
  if (isSidechain(entry) || entry.isApiErrorMessage) return undefined;
  const text = entry.content.map((block) => block.type === "text" ? block.text : "")
    .filter((part) => part !== "").join("\n");
  const cleaned = stripReminders(text).trim();
  return cleaned === "" ? undefined : cleaned;
}

/** Text without `<system-reminder>` blocks (an unclosed one runs to the end). */
function stripReminders(text: string): string {
  return text.includes("<system-reminder>") ? text.replace(SYSTEM_REMINDER, "") : text;
}
