/**
 * The recovery meta-prompt (spec 11.7.1): a fill-in-the-blank template that
 * `claude -p` completes into the first message of a session whose
 * transcript was lost. The wording is the spec's, verbatim; bullets are `*`
 * because Claude Code reads a line starting with `-` as a flag.
 *
 * @module
 */

/** What the template is filled with. */
export interface RecoveryFacts {
  dir: string;
  desc: string;
  memoryDir: string;
  subagentsDir: string;
  subagentCount: number;
  /** YYYY-MM-DD, or `unknown`. */
  subagentLatest: string;
  /** `<tokens> tokens`, or `unknown token count`. */
  tokensText: string;
  /** The last activity, or `unknown`. */
  dateText: string;
}

/** YYYY-MM-DD in local time. */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The meta-prompt for `claude -p`. */
export function buildRecoveryMetaPrompt(facts: RecoveryFacts): string {
  const { dir, desc } = facts;
  return `Context: a Claude Code session was deleted. You need to produce orientation text for a future Claude Code session that will read this text as its first input. Produce the text. That text goes directly into the next session. It is NOT a summary, NOT a description, NOT a report about what you did. It is the directives themselves.

Read these artifacts:
* Memory files in ${facts.memoryDir}
* Subagent transcripts in ${facts.subagentsDir} (2-3 most recent; total on disk: ${facts.subagentCount}, latest dated ${facts.subagentLatest})
* The project code at ${dir}

Session metadata (for reference when you write):
* Session name: ${desc}
* Project path: ${dir}
* Last activity: ${facts.dateText}
* Conversation size when lost: ${facts.tokensText}

Now replace every <PLACEHOLDER> below and OUTPUT the completed template. Start your output with "This is a recovery session." and end with "ask before assuming." Output nothing else. No preamble, no confirmation, no summary of what you did.

This is a recovery session. The previous conversation transcript for "${desc}" was deleted. The project lives at ${dir}. Memory, subagent state, and source code all survived.

Read these files in this order:

<NUMBERED LIST. Format: "1. <filename>: <one-line description of what this file contains, based on what you read in it>". Use actual file paths from the memory directory.>

Then skim these subagent transcripts for context on in-flight work:

<BULLETED LIST using "*" not "-". Format: "* <filename>: <what this subagent was doing>". Use 2-3 of the most recently modified subagent transcripts. If there are zero subagent transcripts, replace this whole list with the single line: "No surviving subagent transcripts.">

Open questions or in-flight work visible from the artifacts:

<BULLETED LIST using "*" not "-". One line per item. If nothing specific is identifiable, replace this whole list with: "None identified from the artifacts.">

Read these in order. Do not run builds, tests, or git commands yet. Do not modify any files. After reading, report back with: (1) your understanding of project state as of the last captured activity, (2) what appears to have been in progress, (3) what you recommend doing next. Do not invent details. If something is unclear, ask before assuming.
`;
}
