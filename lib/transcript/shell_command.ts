/**
 * What a Bash tool call's command line did, read from its text: the simple
 * commands it chains (`a && b; c | d`), each as words with quotes removed,
 * and from those whether it committed, pushed, ran tests, only looked
 * around, or removed or moved files. A best-effort reading: anything with
 * substitutions or globs is left unclassified rather than guessed.
 *
 * @module
 */

/** What kind of work a command line is. */
export type CommandKind = "commit" | "push" | "test" | "delete" | "look" | "command";

/** A command line, read. */
export interface CommandReading {
  kind: CommandKind;
  /** Also pushes (a commit chained with a push). */
  pushes: boolean;
  /** Paths the command removes (`rm`, `git rm`, the source of `mv`), as written. */
  removes: { path: string; cwd?: string }[];
  /** Paths a `mv` creates, as written. */
  creates: { path: string; cwd?: string }[];
}

const TEST_COMMAND =
  /^(?:(?:npm|pnpm|yarn|bun)(?: run)? test|deno (?:task )?test|pytest|python3? -m (?:pytest|unittest)|cargo (?:test|nextest)|go test|jest|vitest|npx (?:jest|vitest|mocha)|mocha|make (?:test|check)|mvn (?:test|verify)|gradle\w* test|\.\/gradlew test|dotnet test|rspec|bundle exec rspec|tox|phpunit|ctest)\b/;
const LOOK_COMMANDS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "grep",
  "rg",
  "ag",
  "find",
  "fd",
  "pwd",
  "echo",
  "wc",
  "which",
  "type",
  "tree",
  "stat",
  "file",
  "du",
  "df",
  "whoami",
  "date",
  "uname",
  "sort",
  "uniq",
  "jq",
  "diff",
]);
const GIT_LOOK = new Set([
  "status",
  "log",
  "diff",
  "show",
  "branch",
  "remote",
  "rev-parse",
  "ls-files",
  "blame",
  "describe",
  "reflog",
]);

/** Read a Bash command line. */
export function readCommand(command: string): CommandReading {
  const reading: CommandReading = { kind: "command", pushes: false, removes: [], creates: [] };
  const segments = splitCommands(command);
  let cwd: string | undefined;
  let commits = false;
  let tests = false;
  let looksOnly = segments.length > 0;
  for (const words of segments) {
    const [first, second] = words;
    const git = first === "git" ? gitSubcommand(words) : undefined;
    if (git === "commit") commits = true;
    if (git === "push") reading.pushes = true;
    if (TEST_COMMAND.test(words.join(" "))) tests = true;
    if (!(LOOK_COMMANDS.has(first) || (git !== undefined && GIT_LOOK.has(git)) || first === "cd")) {
      looksOnly = false;
    }
    if (first === "cd" && words.length === 2) cwd = cwd === undefined ? second : join(cwd, second);
    if (first === "rm" || git === "rm") {
      const args = operands(first === "rm" ? words.slice(1) : words.slice(words.indexOf("rm") + 1));
      if (!(git === "rm" && words.includes("--cached"))) {
        reading.removes.push(...args.map((path) => ({ path, cwd })));
      }
    }
    if (first === "mv" || git === "mv") {
      const args = operands(first === "mv" ? words.slice(1) : words.slice(words.indexOf("mv") + 1));
      if (args.length === 2) {
        reading.removes.push({ path: args[0], cwd });
        reading.creates.push({ path: args[1], cwd });
      }
    }
  }
  reading.kind = commits
    ? "commit"
    : reading.pushes
    ? "push"
    : tests
    ? "test"
    : reading.removes.length > 0
    ? "delete"
    : looksOnly
    ? "look"
    : "command";
  return reading;
}

/** The commits a `git commit` printed: `[branch 1a2b3c4] subject` lines. */
export function committedShas(output: string): { sha: string; branch: string; subject: string }[] {
  const found: { sha: string; branch: string; subject: string }[] = [];
  const line = /^\[(detached HEAD|[^\s\]]+)(?: \([^)]*\))* ([0-9a-f]{7,40})\] (.*)$/gm;
  for (const match of output.matchAll(line)) {
    found.push({ branch: match[1], sha: match[2], subject: match[3].trim() });
  }
  return found;
}

/** A branch `git push` updated, from its report: `abc1234..def5678  main -> main`. */
export interface PushedRef {
  /** The remote branch. */
  ref: string;
  /** Its new tip; undefined for a new branch, whose report gives no commit. */
  sha?: string;
}

/** The branches a `git push` reported updating (tags and rejected refs left out). */
export function pushedRefs(output: string): PushedRef[] {
  const found: PushedRef[] = [];
  const line =
    /^\s*[+*]?\s*(?:[0-9a-f]{7,40}\.\.\.?([0-9a-f]{7,40})|\[new branch\])\s+\S+\s+->\s+(\S+)/gm;
  for (const match of output.matchAll(line)) found.push({ ref: match[2], sha: match[1] });
  return found;
}

/**
 * The simple commands of a command line, as words. Returns [] when the line
 * uses what this reader cannot follow (substitutions, here-documents).
 */
export function splitCommands(command: string): string[][] {
  if (/\$\(|`|<<|\beval\b/.test(command)) return [];
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(stripAssignments(words));
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) return [];
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && j + 1 < command.length) j++;
        word += command[j];
        j++;
      }
      if (j >= command.length) return [];
      inWord = true;
      i = j;
    } else if (c === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") word += command[i + 1];
      inWord = true;
      i++;
    } else if (c === "&" || c === "|" || c === ";" || c === "\n" || c === "(" || c === ")") {
      endCommand();
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === ">" || c === "<") {
      if (/^\d+$/.test(word)) inWord = false; // the fd number of `2>file`
      endWord();
      // A redirection's target is not an operand of the command.
      while (command[i + 1] === ">" || command[i + 1] === "&") i++;
      while (command[i + 1] === " ") i++;
      while (i + 1 < command.length && !/[\s;&|]/.test(command[i + 1])) i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands.filter((words) => words.length > 0);
}

function stripAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
  const rest = words.slice(i);
  return rest[0] === "sudo" ? rest.slice(1) : rest;
}

/** The subcommand of a git command line, past options like `-C dir` and `-c k=v`. */
function gitSubcommand(words: string[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === "-C" || word === "-c" || word === "--git-dir" || word === "--work-tree") i++;
    else if (!word.startsWith("-")) return word;
  }
  return undefined;
}

/** The operands of a command's words: options dropped, globs and variables left out. */
function operands(args: string[]): string[] {
  const out: string[] = [];
  let optionsDone = false;
  for (const arg of args) {
    if (!optionsDone && arg === "--") optionsDone = true;
    else if (!optionsDone && arg.startsWith("-")) continue;
    else if (!/[*?[$~{]/.test(arg)) out.push(arg);
  }
  return out;
}

function join(base: string, next: string): string {
  if (next.startsWith("/") || /^[A-Za-z]:[\\/]/.test(next)) return next;
  return `${base.replace(/[\\/]+$/, "")}/${next}`;
}
