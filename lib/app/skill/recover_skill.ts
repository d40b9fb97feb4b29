/**
 * The `/recover` skill Claude Code loads from `<claude root>/skills/recover/`.
 * It drives the two phases of `claudecm recover` from inside a running
 * session, where no interactive picker can work (recover-design.md).
 *
 * @module
 */

/** The contents of `SKILL.md`. */
export const RECOVER_SKILL = `---
name: recover
description: Rebuild this folder's previous Claude Code session from its on-disk transcript after it crashed mid-work (computer died, terminal closed, Claude broke mid-task), when no /checkpoint was saved and the session ID is unknown. Use when the user says their last session here crashed or asks to recover, rebuild or pick up the previous session in this folder. Not for transient API errors, for state the user saved on purpose, or for searching old topics across projects.
---

# Recover a crashed session

Rebuild the working state of this folder's most recent earlier session from its
transcript, inject it here, and carry on. Two phases, always with a confirmation
between them: picking the wrong session is the main risk.

1. List the candidates (your own session is excluded):

   \`\`\`sh
   claudecm recover --json --exclude "$CLAUDE_CODE_SESSION_ID"
   \`\`\`

2. If \`candidates\` is empty, tell the user no prior session was found for this
   folder (a fresh repo, the wrong folder, or nothing crashed here) and stop.
   Do not invent one.

3. Show the first candidate as the auto-pick: title, last prompt, when
   (\`lastActivity\`), branch; \`truncated: true\` means it died mid-write. List
   the others as numbered alternates. Ask the user to confirm before going on.

4. On confirmation, print the digest of the chosen session:

   \`\`\`sh
   claudecm recover --session <id> --digest
   \`\`\`

   Its output is the recovered working state: read all of it. If it is too
   long for this context, add \`--budget <chars>\` (default 12000). Then tell the
   user: for a true native continuation that keeps Claude's internal state, run
   \`claude --resume <id>\` in a fresh terminal. Never run it yourself: it needs
   its own terminal, and a nested session cannot hand its thread back here.

5. Re-anchor in one or two lines: "You were doing X; the next step was Y."
   Check MEMORY.md or CLAUDE.md for the project's standing conventions. If the
   digest warns that the last turn may be incomplete, check the real state
   first (git status, the files named, the last command) rather than assume
   the interrupted step finished. Then continue the work.

6. If the user says it is the wrong session, take the alternate they name and
   run step 4 with its id.

Exit code 3 means the id is not a UUID or has no transcript: list again. Do not
read the raw transcript (\`~/.claude/projects/...\`) into this context; the
digest exists so you do not have to.
`;
