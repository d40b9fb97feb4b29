/**
 * The environment of every claude claudecm starts, without the variables a
 * running Claude Code sets in the shells of its tools (issue 18 item 6).
 * claudecm started from such a shell (claude's `!` or Bash tool, a hook)
 * would otherwise pass them on, and the new claude would take itself for a
 * child of that session: some versions then stopped saving transcripts.
 *
 * @module
 */

/**
 * Measured with the real 2.1.332 (`env` in its tool shell:
 * tests/real_claude_interactive_contract_test.ts pins it), plus the two
 * its bundle sets for MCP servers and connectors. `SHELL` and `GIT_EDITOR`,
 * which it sets too, are not the session's and stay.
 */
export const CLAUDE_SESSION_VARIABLES: readonly string[] = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_CODE_CHILD_SESSION",
  "CLAUDE_CODE_SESSION_ATTENDED",
  "CLAUDE_CODE_CHILD_NOTES_DIR",
  "CLAUDE_CODE_EXECPATH",
  "CLAUDE_CODE_MESSAGING_SOCKET",
  "CLAUDE_CODE_MESSAGING_TOKEN",
  "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS",
  "CLAUDE_CODE_STARTER_MAY_HOLD_CONNECTOR_FILE",
  "CLAUDE_PID",
  "CLAUDE_EFFORT",
  "AI_AGENT",
];

const REMOVED = new Set(CLAUDE_SESSION_VARIABLES);

/** `env` without {@linkcode CLAUDE_SESSION_VARIABLES} (in any letter case: Windows ignores it). */
export function withoutClaudeSession(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !REMOVED.has(name.toUpperCase())),
  );
}
