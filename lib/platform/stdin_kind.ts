/**
 * Whether this process's stdin is a file or a device (`< answers.txt`,
 * `</dev/null`, `< NUL`, cron's stdin) rather than a pipe or a terminal: its
 * end is known, so a question with no answer there need not be shown (a
 * pipe may be a program answering what it reads). Asked on the first
 * question only, never at start-up.
 *
 * Deno gives stdin no `stat()`, and node:fs's `fstatSync(0)` costs about
 * 30 ms of start-up (Deno's Node layer) and fails for a pipe and NUL alike on
 * Windows (measured under wine). So on Unix `/dev/stdin` is stat'ed, and on
 * Windows kernel32's `GetFileType` of the standard input handle is asked
 * (about a millisecond): a disk file, or a character device that is no
 * console (NUL), is a file; a pipe is not.
 *
 * @module
 */

import { hostOs } from "./os.ts";

/** `GetFileType`'s answers (winbase.h). */
const FILE_TYPE_DISK = 1;
const FILE_TYPE_CHAR = 2;
/** `GetStdHandle`'s id of the standard input. */
const STD_INPUT_HANDLE = -10;

let known: boolean | undefined;

/**
 * Whether stdin is a file or a device, not a pipe or a terminal; false when
 * it cannot be told. Asked once: what stdin is does not change during a run.
 */
export function stdinIsFile(): boolean {
  known ??= !Deno.stdin.isTerminal() &&
    (hostOs === "windows" ? windowsStdinIsFile() : unixStdinIsFile());
  return known;
}

function unixStdinIsFile(): boolean {
  try {
    const info = Deno.statSync("/dev/stdin");
    return !info.isFifo && !info.isSocket;
  } catch {
    return false;
  }
}

function windowsStdinIsFile(): boolean {
  let kernel32;
  try {
    kernel32 = Deno.dlopen(
      "kernel32.dll",
      {
        GetStdHandle: { parameters: ["i32"], result: "pointer" },
        GetFileType: { parameters: ["pointer"], result: "u32" },
      } as const,
    );
  } catch {
    return false; // No FFI here (a permission withheld): asked as a pipe is.
  }
  try {
    const type = kernel32.symbols.GetFileType(kernel32.symbols.GetStdHandle(STD_INPUT_HANDLE));
    // A console is a character device too, but it is a terminal, answered above.
    return type === FILE_TYPE_DISK || type === FILE_TYPE_CHAR;
  } finally {
    kernel32.close();
  }
}
