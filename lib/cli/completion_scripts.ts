/**
 * `claudecm completions bash|zsh|fish|powershell`: a completion script for
 * each shell, written from the completion model (completion_model.ts):
 * commands, each command's options, the choices of enumerated values,
 * folders for folder values, and session numbers with their names, which
 * the scripts ask the hidden `claudecm __complete sessions` (or `archived`,
 * for the archived list's numbers) for (it reads the list without the lock
 * and writes nothing).
 *
 * @module
 */

import type {
  CompletionArgument,
  CompletionCommand,
  CompletionOption,
} from "./completion_model.ts";

/** The shells completions are written for. */
export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;

/** One of {@linkcode SHELLS}. */
export type Shell = typeof SHELLS[number];

/** What the scripts run for the session numbers and names, one `N<TAB>name` a line. */
export const SESSIONS_QUERY = "claudecm __complete sessions";

/** The same for the archived list, whose numbers `unarchive` takes. */
export const ARCHIVED_QUERY = "claudecm __complete archived";

/** The completion script for `shell`. */
export function completionScript(shell: Shell, model: readonly CompletionCommand[]): string {
  switch (shell) {
    case "bash":
      return bashScript(model);
    case "zsh":
      return zshScript(model);
    case "fish":
      return fishScript(model);
    case "powershell":
      return powershellScript(model);
  }
}

/** `it's` → `'it'\''s'`: one word to a POSIX shell (and to fish and zsh). */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function words(option: CompletionOption): string[] {
  return option.short === undefined ? [option.long] : [option.short, option.long];
}

/** A value's kind or choices as one word the bash script's helper reads. */
function bashKind(value: { kind?: string; choices?: readonly string[] }): string {
  if (value.choices !== undefined) return `choices:${value.choices.join(",")}`;
  return value.kind ?? "none";
}

function bashScript(model: readonly CompletionCommand[]): string {
  const cases = model.map((command) => {
    const key = command.path.join(" ");
    const opts = [...command.options.flatMap(words), ...command.subcommands].join(" ");
    const values = command.options.filter((o) => o.takesValue)
      .flatMap((o) => words(o).map((w) => `${w}=${bashKind(o)}`)).join(" ");
    const args = command.arguments.map((a) => `${bashKind(a)}${a.variadic ? "..." : ""}`)
      .join(" ");
    const groups = command.subcommands.length > 0 ? "group" : "";
    return `    ${quote(key)}) opts=${quote(opts)}; values=${quote(values)}; ` +
      `args=${quote(args)}; kind=${quote(groups)} ;;`;
  });
  return `# claudecm completions for bash. Enable: eval "$(claudecm completions bash)" in ~/.bashrc
_claudecm_lines() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done < <("$@")
}
_claudecm_offer() {
  local what="$1" cur="$2"
  case "$what" in
    session|archived-session)
      local line numbers=() list=sessions
      [[ "$what" == archived-session ]] && list=archived
      while IFS= read -r line; do numbers+=("\${line%%$'\\t'*}"); done \\
        < <(claudecm __complete "$list" 2>/dev/null)
      # In list order (1 2 ... 10), not sorted as text (bash 4.4 and later).
      compopt -o nosort 2>/dev/null
      COMPREPLY=($(compgen -W "\${numbers[*]}" -- "$cur")) ;;
    # One name a line, never split on spaces or globbed: folders are named "my project".
    folder) compopt -o filenames 2>/dev/null; _claudecm_lines compgen -d -- "$cur" ;;
    file) compopt -o filenames 2>/dev/null; _claudecm_lines compgen -f -- "$cur" ;;
    choices:*) local list="\${what#choices:}"; COMPREPLY=($(compgen -W "\${list//,/ }" -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}
_claudecm() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" at=1 opts values args kind
  while :; do
    case "$path" in
${cases.join("\n")}
      *) return ;;
    esac
    local next="\${COMP_WORDS[at]}"
    if [[ "$kind" == group && $at -lt $COMP_CWORD && "$next" != -* ]]; then
      path="\${path:+$path }$next"; at=$((at + 1)); continue
    fi
    break
  done
  local prev="\${COMP_WORDS[COMP_CWORD-1]}" pair
  for pair in $values; do
    if [[ "\${pair%%=*}" == "$prev" ]]; then _claudecm_offer "\${pair#*=}" "$cur"; return; fi
  done
  if [[ "$cur" == -* || "$kind" == group ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur")); return
  fi
  # Which positional argument this word is: the words since the command, less options and their values.
  local i n=0 word skip=""
  for ((i = at; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ -n "$skip" ]]; then skip=""; continue; fi
    if [[ "$word" == -* ]]; then
      for pair in $values; do [[ "\${pair%%=*}" == "$word" ]] && skip=1; done
      continue
    fi
    n=$((n + 1))
  done
  local list=($args) what
  if [[ \${#list[@]} -eq 0 ]]; then COMPREPLY=(); return; fi
  if [[ $n -lt \${#list[@]} ]]; then what="\${list[n]}"; else what="\${list[-1]:-none}"; fi
  if [[ $n -ge \${#list[@]} && "$what" != *... ]]; then COMPREPLY=(); return; fi
  _claudecm_offer "\${what%...}" "$cur"
}
complete -F _claudecm claudecm
`;
}

/** Text inside a zsh `_arguments` spec's `[...]` or a `_describe` entry. */
function zshText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/([[\]:])/g, "\\$1");
}

function zshAction(value: { kind?: string; choices?: readonly string[] }): string {
  if (value.choices !== undefined) return `(${value.choices.join(" ")})`;
  if (value.kind === "session") return "_claudecm_sessions sessions";
  if (value.kind === "archived-session") return "_claudecm_sessions archived";
  if (value.kind === "folder") return "_files -/";
  if (value.kind === "file") return "_files";
  return " ";
}

function zshOption(option: CompletionOption): string {
  const value = option.takesValue ? `:${option.long.slice(2)}:${zshAction(option)}` : "";
  const spec = `[${zshText(option.description)}]${value}`;
  if (option.short === undefined) return quote(`${option.long}${spec}`);
  return `${quote(`(${option.short} ${option.long})`)}{${option.short},${option.long}}${
    quote(spec)
  }`;
}

function zshArgument(argument: CompletionArgument, at: number): string {
  const position = argument.variadic ? "*" : String(at + 1);
  return quote(`${position}:${argument.name}:${zshAction(argument)}`);
}

function zshBody(command: CompletionCommand, model: readonly CompletionCommand[]): string[] {
  if (command.subcommands.length === 0) {
    const specs = [...command.options.map(zshOption), ...command.arguments.map(zshArgument)];
    return [`_arguments -s ${specs.join(" ")}`];
  }
  const children = model.filter((c) =>
    c.path.length === command.path.length + 1 &&
    c.path.slice(0, -1).join(" ") === command.path.join(" ")
  );
  const described = children.map((c) => quote(`${c.path.at(-1)}:${zshText(c.description)}`));
  if (command.path.length === 0) described.push(quote("help:display help for command"));
  const lines = [
    "if (( CURRENT == 2 )); then",
    `  local -a subcommands=(${described.join(" ")})`,
    `  _describe -t commands command subcommands`,
    `  _arguments -s ${command.options.map(zshOption).join(" ")}`,
    "  return",
    "fi",
    "local sub=$words[2]",
    "shift words; (( CURRENT-- ))",
    "case $sub in",
  ];
  for (const child of children) {
    lines.push(
      `  ${child.path.at(-1)})`,
      ...zshBody(child, model).map((l) => `    ${l}`),
      "    ;;",
    );
  }
  if (command.path.length === 0) {
    const names = children.map((c) => c.path[0]).join(" ");
    lines.push(`  help) _values command ${names} ;;`);
  }
  lines.push("esac");
  return lines;
}

function zshScript(model: readonly CompletionCommand[]): string {
  const root = model.find((command) => command.path.length === 0)!;
  // The program's words as subcommands of a nameless root: `claudecm` is words[1].
  return `#compdef claudecm
# claudecm completions for zsh. Enable: eval "$(claudecm completions zsh)" in ~/.zshrc
# (after compinit), or save it as _claudecm in a folder of $fpath.
# _arguments calls an action with compadd options first (-J group ...): the list is the last
# word, and the options go on to _describe.
_claudecm_sessions() {
  local -a sessions
  sessions=(\${(f)"$(claudecm __complete "\${@[-1]}" 2>/dev/null | sed -e 's/:/\\\\:/g' -e 's/\t/:/')"})
  _describe -t sessions session sessions "\${@[1,-2]}"
}
_claudecm() {
${zshBody(root, model).map((line) => `  ${line}`).join("\n")}
}
if [[ "\${funcstack[1]}" == _claudecm ]]; then _claudecm "$@"; else compdef _claudecm claudecm; fi
`;
}

function fishOption(option: CompletionOption, condition: string): string {
  const parts = [`complete -c claudecm -n ${quote(condition)}`, `-l ${option.long.slice(2)}`];
  if (option.short !== undefined) parts.push(`-s ${option.short.slice(1)}`);
  if (option.takesValue) parts.push(fishValue(option));
  parts.push(`-d ${quote(option.description)}`);
  return parts.join(" ");
}

function fishValue(value: { kind?: string; choices?: readonly string[] }): string {
  if (value.choices !== undefined) return `-xa ${quote(value.choices.join(" "))}`;
  if (value.kind === "session") return `-xa ${quote(`(${SESSIONS_QUERY})`)}`;
  if (value.kind === "archived-session") return `-xa ${quote(`(${ARCHIVED_QUERY})`)}`;
  if (value.kind === "folder") return `-xa ${quote("(__fish_complete_directories)")}`;
  if (value.kind === "file") return "-rF";
  return "-x";
}

function fishScript(model: readonly CompletionCommand[]): string {
  const lines = [
    "# claudecm completions for fish. Enable: claudecm completions fish > " +
    "~/.config/fish/completions/claudecm.fish",
    "function __claudecm_words",
    "    set -l words (commandline -opc)",
    "    set -e words[1]",
    "    string match -v -- '-*' $words",
    "end",
    "# The command line names exactly the command $argv (a group, waiting for its subcommand).",
    "function __claudecm_at",
    "    set -l words (__claudecm_words)",
    '    test "$words" = "$argv"',
    "end",
    "# The command line is in the command $argv (its options and arguments follow).",
    "function __claudecm_in",
    "    set -l words (__claudecm_words)",
    "    test (count $words) -ge (count $argv); or return 1",
    "    for i in (seq (count $argv))",
    '        test "$words[$i]" = "$argv[$i]"; or return 1',
    "    end",
    "end",
    "complete -c claudecm -f",
  ];
  for (const command of model) {
    const path = command.path.join(" ");
    const group = command.subcommands.length > 0;
    const condition = command.path.length === 0
      ? "__claudecm_at"
      : group
      ? `__claudecm_at ${path}`
      : `__claudecm_in ${path}`;
    for (const name of command.subcommands) {
      const child = model.find((c) => c.path.join(" ") === [...command.path, name].join(" "));
      const description = child?.description ?? "display help for command";
      lines.push(
        `complete -c claudecm -n ${quote(condition)} -a ${quote(name)} -d ${quote(description)}`,
      );
    }
    for (const option of command.options) lines.push(fishOption(option, condition));
    const first = command.arguments[0];
    if (!group && first !== undefined && (first.kind !== undefined || first.choices)) {
      lines.push(`complete -c claudecm -n ${quote(condition)} ${fishValue(first)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function powershellScript(model: readonly CompletionCommand[]): string {
  const entries = model.map((command) => {
    const opts = command.options.flatMap(words).map((w) => `'${w}'`).join(",");
    const subs = command.subcommands.map((s) => `'${s}'`).join(",");
    const values = command.options.filter((o) => o.takesValue).flatMap((o) =>
      words(o).map((w) => `'${w}'='${powershellKind(o)}'`)
    ).join(";");
    const first = command.arguments[0];
    const arg = first === undefined ? "none" : powershellKind(first);
    return `  '${command.path.join(" ")}' = @{ opts = @(${opts}); subs = @(${subs}); ` +
      `values = @{${values}}; arg = '${arg}' }`;
  });
  return `# claudecm completions for PowerShell. Enable: claudecm completions powershell | Out-String | Invoke-Expression
# (add that line to $PROFILE).
$claudecmCompletion = @{
${entries.join("\n")}
}
Register-ArgumentCompleter -Native -CommandName claudecm -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
  $path = ''
  foreach ($word in $words) {
    $next = if ($path -eq '') { $word } else { "$path $word" }
    if ($word -notlike '-*' -and $claudecmCompletion.ContainsKey($next)) { $path = $next } else { break }
  }
  $entry = $claudecmCompletion[$path]
  $previous = if ($words.Count -gt 0) { $words[-1] } else { '' }
  $kind = if ($entry.values.ContainsKey($previous)) { $entry.values[$previous] }
    elseif ($wordToComplete -like '-*' -or $entry.subs.Count -gt 0) { 'words' }
    else { $entry.arg }
  $offer = switch -Wildcard ($kind) {
    'words' { @($entry.opts) + @($entry.subs) | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_) } }
    '*session' {
      $list = if ($kind -eq 'session') { 'sessions' } else { 'archived' }
      & claudecm __complete $list 2>$null | ForEach-Object {
        $number, $name = $_ -split "\`t", 2
        [System.Management.Automation.CompletionResult]::new($number, "$number $name", 'ParameterValue', "$name")
      }
    }
    'folder' { Get-ChildItem -Directory -Path "$wordToComplete*" -ErrorAction SilentlyContinue | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_.FullName) } }
    'file' { Get-ChildItem -Path "$wordToComplete*" -ErrorAction SilentlyContinue | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_.FullName) } }
    'choices:*' { $kind.Substring(8) -split ',' | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_) } }
  }
  $offer | Where-Object { $_.CompletionText -like "$wordToComplete*" }
}
`;
}

function powershellKind(value: { kind?: string; choices?: readonly string[] }): string {
  if (value.choices !== undefined) return `choices:${value.choices.join(",")}`;
  return value.kind ?? "none";
}
