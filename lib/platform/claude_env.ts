/**
 * The environment of every claude claudecm starts, without the variables
 * that describe one other claude: the session it runs, the launch that
 * started it, the host or daemon that handed it over (issue 18 item 6, issue
 * 30 item 12). claudecm started from such a claude's shell (its `!` or Bash
 * tool, a hook), or by a host that set them for the claude it meant to
 * start, would otherwise pass them on, and the new claude would take itself
 * for that session, that relaunch or that host's child: some versions then
 * stopped saving transcripts.
 *
 * Every other variable passes: claude 2.1.332 reads 965 `CLAUDE_*` names
 * (fixtures/claude-env-2.1.332.txt, checked against its bundle by
 * tests/real_claude_env_contract_test.ts), and all the others are settings a
 * person or their environment gives every claude (CLAUDE_CONFIG_DIR,
 * CLAUDE_CODE_PROJECT_DIR_NAME, CLAUDE_CODE_USE_BEDROCK, the CLAUDE_CODE_DISABLE_*
 * switches...): a claude claudecm starts sees them as one started by hand.
 * A new claude that reads a name the list lacks fails that test, so each new
 * one is decided here.
 *
 * @module
 */

/**
 * Set by a running 2.1.332 in its tool shells (measured, `env` there:
 * tests/real_claude_interactive_contract_test.ts pins it), plus the two its
 * bundle sets for MCP servers and connectors. `SHELL` and `GIT_EDITOR`, which
 * it sets too, are not the session's and stay.
 */
const SESSION_SHELL = [
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

/**
 * What a claude hands to the claude it relaunches or resumes itself: the
 * session's kind and name, why and how it resumes (CLAUDE_CODE_RESUME_SOURCE_ALIVE:
 * the session it resumes is still running), trust and sandbox answers
 * carried across the relaunch. 2.1.332 deletes exactly these from every
 * other child's environment (its bundle's list, which the contract test
 * compares), so they only ever describe that one launch.
 */
const RELAUNCH = [
  "CLAUDE_CODE_SESSION_KIND",
  "CLAUDE_BG_SOURCE",
  "CLAUDE_BG_DISPATCH_ENTRYPOINT",
  "CLAUDE_BG_ISOLATION",
  "CLAUDE_BG_BACKEND",
  "CLAUDE_CODE_SESSION_NAME",
  "CLAUDE_CODE_RESUME_INTERRUPTED_TURN",
  "CLAUDE_CODE_RESUME_INTERRUPTED_TURN_MAX_AGE_MS",
  "CLAUDE_CODE_RESUME_PROMPT",
  "CLAUDE_CODE_RESUME_SHOWS_CUT_OFF_CALLS",
  "CLAUDE_CODE_RESUME_REASON",
  "CLAUDE_CODE_RESUME_SOURCE_ALIVE",
  "CLAUDE_CODE_SESSION_BEGAN_AS_COPY",
  "CLAUDE_CODE_DISABLE_DEFERRED_TOOL_RESUME",
  "CLAUDE_BG_POST_CLEAR_RESPAWN",
  "CLAUDE_BG_SESSION_PERMISSION_RULES",
  "CLAUDE_BG_MEMORY_TOGGLED_OFF",
  "CLAUDE_BG_AUTO_MEMORY_OFF",
  "CLAUDE_BG_GATEWAY_ROUTED",
  "CLAUDE_BG_CRASH_UPLOAD_JUDGED",
  "CLAUDE_BG_WORKSPACE_TRUSTED",
  "CLAUDE_BG_CARRIED_PROMPTS_SHA256",
  "CLAUDE_BG_GATEWAY_WITHHELD",
  "CLAUDE_BG_SESSION_CREDENTIAL",
  "CLAUDE_CODE_RELAUNCH_HOME_TRUST",
  "CLAUDE_CODE_RELAUNCH_SANDBOX_HOLD",
  "CLAUDE_CODE_RELAUNCH_BYPASS_SWITCH",
  "CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS",
  "CLAUDE_CODE_RESUME_HINT_COMMAND",
  "CLAUDE_CODE_RELAUNCH_SEAT_LAUNCH",
  "CLAUDE_BG_DISPATCHER_SUBSCRIPTION_TYPE",
  "CLAUDE_BG_DISPATCHER_RATE_LIMIT_TIER",
];

/**
 * The rest of one relaunch's state (terminal size, proactivity answers) and
 * of the background daemon's plumbing (its sockets, their auth tokens, its
 * timers): a daemon sets them for the claude it spawns, never for another.
 */
const DAEMON = [
  "CLAUDE_CODE_RELAUNCH_PROACTIVITY_BASELINE",
  "CLAUDE_CODE_RELAUNCH_PROACTIVITY_DECIDED",
  "CLAUDE_CODE_RELAUNCH_PROACTIVITY_EVER_ON",
  "CLAUDE_CODE_RELAUNCH_PROACTIVITY_LEVEL",
  "CLAUDE_CODE_RELAUNCH_TERMINAL_SIZE",
  "CLAUDE_CODE_RESUME_FROM_SESSION",
  "CLAUDE_BG_AUTH_SNAPSHOT_PATH",
  "CLAUDE_BG_CLAIM_AUTH",
  "CLAUDE_BG_PTY_AUTH",
  "CLAUDE_BG_RENDEZVOUS_SOCK",
  "CLAUDE_BG_RV_AUTH",
  "CLAUDE_BG_SOCKET_TOKENS_PATH",
  "CLAUDE_BG_SOCK_ADMIT_SILENT_PEERS",
  "CLAUDE_BG_SILENT_PEER_TIMEOUT_MS",
  "CLAUDE_BG_STARTUP_WEDGE_MS",
  "CLAUDE_BG_TCC_DISCLAIMED",
  "CLAUDE_PTY_HOST_EXEC",
  "CLAUDE_PTY_HOST_NO_STABLE_PATH",
];

/**
 * One session's identity as a host hands it to the claude it starts: a
 * remote runner's session (CLAUDE_CODE_REMOTE_SESSION_ID makes a child
 * session take itself for that remote one), a desktop host's session and the
 * folder whose trust it checked for that launch alone
 * (CLAUDE_CODE_HOST_CHECKED_FOLDER: a claude claudecm starts elsewhere must
 * ask for its own folder), a bridge's session and the child settings it
 * passes down (2.1.332 withholds the CLAUDE_CODE_BRIDGE_CHILD_* and HOST_*
 * ones below from its own children), a session to reattach.
 */
const HANDED_OVER = [
  "CLAUDE_CODE_REMOTE_SESSION_ID",
  "CLAUDE_CODE_REMOTE_SESSION_ORIGIN",
  "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
  "CLAUDE_CODE_SESSION_CREATED_AT_MS",
  "CLAUDE_CODE_SESSION_ORIGIN",
  "CLAUDE_CODE_HOST_SESSION_ID",
  "CLAUDE_CODE_HOST_CHECKED_FOLDER",
  "CLAUDE_CODE_HOST_STARTED_AHEAD",
  "CLAUDE_CODE_HOST_PROMPT_SUPERSEDES_RECORD",
  "CLAUDE_CODE_HOST_SCHEDULED_RUN",
  "CLAUDE_CODE_BRIDGE_SESSION_ID",
  "CLAUDE_CODE_BRIDGE_PROMPT_SHA256",
  "CLAUDE_CODE_BRIDGE_SOURCE_DIR",
  "CLAUDE_CODE_BRIDGE_CHILD_ARTIFACT",
  "CLAUDE_CODE_BRIDGE_CHILD_AUTO_DEFAULT",
  "CLAUDE_CODE_BRIDGE_CHILD_CLI_ENTRYPOINT",
  "CLAUDE_CODE_BRIDGE_CHILD_HELD_TO_AUTO",
  "CLAUDE_CODE_BRIDGE_CHILD_MACHINE_SETTINGS",
  "CLAUDE_CODE_BRIDGE_CHILD_PROJECTS_ENTRYPOINT",
  "CLAUDE_CODE_BRIDGE_CHILD_START_DIR",
  "CLAUDE_BRIDGE_REATTACH_GROUPING",
  "CLAUDE_BRIDGE_REATTACH_NO_BACKFILL",
  "CLAUDE_BRIDGE_REATTACH_OUTBOUND_ONLY",
  "CLAUDE_BRIDGE_REATTACH_OWNER_ACCT",
  "CLAUDE_BRIDGE_REATTACH_OWNER_ORG",
  "CLAUDE_BRIDGE_REATTACH_SEQ",
  "CLAUDE_BRIDGE_REATTACH_SESSION",
];

/** Every variable claudecm removes from a claude's environment; all others pass. */
export const CLAUDE_SESSION_VARIABLES: readonly string[] = [
  ...SESSION_SHELL,
  ...RELAUNCH,
  ...DAEMON,
  ...HANDED_OVER,
];

const REMOVED = new Set(CLAUDE_SESSION_VARIABLES);

/** Whether claudecm passes variable `name` to the claude it starts (any letter case). */
export function passesToClaude(name: string): boolean {
  return !REMOVED.has(name.toUpperCase());
}

/** `env` without {@linkcode CLAUDE_SESSION_VARIABLES} (in any letter case: Windows ignores it). */
export function withoutClaudeSession(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => passesToClaude(name)));
}
