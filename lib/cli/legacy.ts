/**
 * The old scripts' grammar, kept working as aliases of the canonical
 * commands (DESIGN.md section 1, spec 11.1-11.4).
 *
 * The old scripts prompted on whatever stdin was, a terminal or a pipe, so
 * their list and search forms translate to `list --interactive` and
 * `search --interactive`. The canonical `list` and `search` prompt only when
 * stdin is a terminal (or with `--interactive`), and print a table otherwise.
 *
 * @module
 */

import { editDistance } from "./suggest.ts";
import { COMMAND_NAMES } from "./commands.ts";
import { VERSION_FLAGS } from "../version.ts";
import { jsonAmong } from "./parse_args.ts";

/** Canonical subcommands (the command table's): a first argument naming one is already canonical. */
const CANONICAL_COMMANDS = COMMAND_NAMES;

const OWN_FLAGS = new Set(["-h", "--help", ...VERSION_FLAGS]);
const LIST_FORMS = new Set(["l", "L", "-l", "-L"]);

/**
 * Rewrite an old-style command line into the canonical one:
 * bare, `l`, `L`, `-l`, `-L` → `list --interactive`; `N` → `resume N`;
 * `-s`/`-S TERM...` → `search --interactive -- "TERM..."` (no term: `search
 * --interactive`, which prints the usage); `n`/`N`, `--proj DIR` and anything
 * else → `new`, with every argument other than `--proj DIR` passed through
 * to claude. Arguments after a list form or a number are ignored, as the old
 * scripts ignored them.
 */
export function translateLegacyArgs(args: readonly string[]): string[] {
  const [first, ...rest] = args;
  if (first === undefined || LIST_FORMS.has(first)) return ["list", "--interactive"];
  // claude's own `-v`, which the old scripts passed on, now answers for both (claudecm's first).
  if (first === "-v") return ["--version"];
  if (/^\d+$/.test(first)) return ["resume", first];
  if (first === "-s" || first === "-S") {
    // `claudecm -s my app` means the name "my app", quoted or not.
    const term = rest.join(" ");
    return term === "" ? ["search", "--interactive"] : ["search", "--interactive", "--", term];
  }
  if (CANONICAL_COMMANDS.includes(first) || OWN_FLAGS.has(first)) {
    return [...args];
  }
  return translateNormalMode(first === "n" || first === "N" ? rest : args);
}

/** Spec 11.3: `--proj DIR` is ours wherever it stands; the rest goes to claude. */
function translateNormalMode(args: readonly string[]): string[] {
  const own: string[] = [];
  const passThrough: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--proj" && i + 1 === args.length) {
      // No DIR after it: `new` alone refuses it (claude does not know --proj); with the words
      // for claude after it, the parser would take their `--` for the DIR.
      return ["new", "--proj"];
    }
    if (args[i] === "--proj") {
      own.push("--proj", args[++i]);
    } else {
      passThrough.push(args[i]);
    }
  }
  return passThrough.length > 0 ? ["new", ...own, "--", ...passThrough] : ["new", ...own];
}

/**
 * Common first words of a prompt that the typo rule below would take for a
 * command (`still` for skill, `now` for new, `remove` for recover): they
 * start a session, as any other words do.
 */
const PROMPT_WORDS = new Set<string>([
  "adapt",
  "adept",
  "fine",
  "fund",
  "heap",
  "held",
  "hell",
  "helm",
  "hemp",
  "last",
  "lift",
  "lint",
  "lisp",
  "lost",
  "lust",
  "net",
  "news",
  "now",
  "remove",
  "spill",
  "still",
  "vision",
]);

/** A prefix shorter than this (`re`, `s`) says too little to be a command. */
const MIN_PREFIX = 3;

/**
 * The commands the first argument is a typo of (DESIGN.md 5.18): `lsit` →
 * `list`, `serach` → `search`, `rec` → `recall`, `recover`; empty when it is
 * a command, an old form or ordinary words for claude. A typo is a word of
 * letters that is a known command's prefix, or within one edit of a command
 * of up to six letters (two of a longer one) with the same first letter (or
 * the first two swapped), and is not a common prompt word. Invisible
 * characters and spaces around it do not hide a command (`list\u200b`), and
 * a letter of another script that looks like a Latin one (`lısт`) counts as
 * a typo's letter.
 */
export function commandTypo(args: readonly string[]): string[] {
  if (args[0] !== undefined && CANONICAL_COMMANDS.includes(args[0])) {
    return [];
  }
  const word = args[0] === undefined ? undefined : commandShaped(args[0]);
  if (word === undefined || !/^[a-z?]{2,}$/.test(word) || !/^[a-z]/.test(word)) return [];
  if (CANONICAL_COMMANDS.includes(word)) return [word];
  if (word.length < MIN_PREFIX || PROMPT_WORDS.has(word)) return [];
  let best = Infinity;
  let similar: string[] = [];
  for (const command of CANONICAL_COMMANDS) {
    const distance = command.startsWith(word) ? 1 : typoDistance(word, command);
    if (distance > best) continue;
    if (distance < best) similar = [];
    best = distance;
    similar.push(command);
  }
  return best === Infinity ? [] : similar.sort();
}

/**
 * The session number a first argument looks like without being one as
 * typed (`claudecm N` resumes only plain digits): ` 1`, `1\u200b`, a
 * fullwidth `１` or another script's digits. The number, in 0-9 digits,
 * when it can be read; else "" for digits of a script it cannot read;
 * null when the argument does not look like a number at all.
 */
export function numberTypo(args: readonly string[]): string | null {
  const first = args[0];
  if (first === undefined || /^\d+$/.test(first)) return null;
  // Plain ASCII needs none of the Unicode work (its first use costs over a millisecond).
  if (/^[\x20-\x7e]*$/.test(first)) return /^\s*\d+\s*$/.test(first) ? first.trim() : null;
  const bare = first.replace(/\p{Cf}/gu, "").trim();
  if (bare === "" || !/^\p{Nd}+$/u.test(bare)) return null;
  const plain = bare.normalize("NFKC");
  return /^\d+$/.test(plain) ? plain : "";
}

/**
 * `arg` as the command name it may stand for: format characters (zero-width,
 * bidirectional) dropped and spaces around it trimmed, lower case, accents
 * dropped, any other letter outside a-z a `?`.
 */
function commandShaped(arg: string): string {
  // Plain ASCII needs none of the Unicode work below (its first use costs over a millisecond).
  if (/^[\x20-\x7e]*$/.test(arg)) return arg.trim().toLowerCase();
  return arg.replace(/\p{Cf}/gu, "").trim().normalize("NFKD").replace(/\p{M}/gu, "")
    .toLowerCase().replace(/[^a-z]/g, (char) => /\p{L}/u.test(char) ? "?" : char);
}

function typoDistance(word: string, command: string): number {
  const swapped = word[0] === command[1] && word[1] === command[0];
  if (word[0] !== command[0] && !swapped) return Infinity;
  const distance = editDistance(word, command);
  return distance <= (command.length <= 6 ? 1 : 2) ? distance : Infinity;
}

/**
 * Words people try for a command that claudecm names otherwise (`rm` for
 * `delete`): only the suggestion after the refusal below, which holds for
 * any bare word.
 */
const NATURAL_VERBS: Readonly<Record<string, string>> = {
  rm: "delete",
  del: "delete",
  remove: "delete",
  erase: "delete",
  kill: "delete",
  mv: "rename",
  ren: "rename",
  cp: "fork",
  copy: "fork",
  clone: "fork",
  branch: "fork",
  ls: "list",
  dir: "list",
  show: "list",
  sessions: "list",
  status: "list",
  open: "resume",
  continue: "resume",
  info: "doctor",
  hide: "archive",
  unhide: "unarchive",
  start: "new",
  create: "new",
};

/**
 * Why a first argument that is one bare word is refused (DESIGN.md
 * decision 22, issue 33.4), or null when it is not one: a word with no
 * space, not starting with `-`, not a command, a number or an old form
 * (`l`, `n`...) would reach claude as a prompt, permissions bypassed, and be
 * saved as a session. A quoted prompt with spaces and `-` arguments still go
 * to claude, as the old scripts sent them. The answer names the command the
 * word probably meant: a typo of one (`lsit`), or a verb people try (`rm`).
 */
export function bareWordRefusal(args: readonly string[]): string | null {
  const first = args[0];
  if (first === undefined || first.startsWith("-") || /\s/.test(first)) return null;
  if (CANONICAL_COMMANDS.includes(first) || LIST_FORMS.has(first) || /^\d+$/.test(first)) {
    return null;
  }
  if (first === "n" || first === "N") return null;
  const typo = commandTypo(args);
  const verb = NATURAL_VERBS[commandShaped(first)];
  const meant = typo.length > 0 ? typo : verb === undefined ? [] : [verb];
  const named = meant.length === 1 ? meant[0] : `one of ${meant.join(", ")}`;
  const send = `claudecm new -- ${args.map(shellWord).join(" ")}`;
  return meant.length > 0
    ? `unknown command '${first}'. Did you mean ${named}? (To send it to claude: ${send})`
    : `unknown command '${first}' (claudecm --help lists them; to send it to claude: ${send})`;
}

/** `word`, quoted when a shell would split it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Why a line the old grammar would send to claude is refused for holding
 * `--json` (before a `--`), or null: claude takes no `--json` (its own is
 * `--output-format json`), so the word was claudecm's, typed before the
 * command (`claudecm --json list`); a script that asked for JSON gets a
 * usage error it can read, not a launch.
 */
export function misplacedJsonRefusal(args: readonly string[]): string | null {
  const commandLine = translateLegacyArgs(args);
  const toClaude = commandLine[0] === "new" && args[0] !== "new";
  if (!toClaude || !jsonAmong(args)) return null;
  const command = args.find((word) => CANONICAL_COMMANDS.includes(word));
  return command !== undefined
    ? `--json goes after the command: claudecm ${command} --json`
    : "--json goes after a command (claudecm list --json); claude takes none " +
      `(to send it to claude: claudecm ${commandLine.map(shellWord).join(" ")})`;
}
