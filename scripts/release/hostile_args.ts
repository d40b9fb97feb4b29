/**
 * Arguments that break a command line: every character cmd.exe or the C
 * runtime treats specially, and then some. The Windows end-to-end check
 * (scripts/windows/e2e.ts) and the release smoke test (scripts/release/
 * smoke.ts) send them through claudecm to a claude and check that each
 * arrives intact. None is an option, so a claude that parses its options
 * (the fake) takes them as its prompt.
 *
 * @module
 */

/** The hostile arguments, in the order they are sent. */
export const HOSTILE_ARGS: readonly string[] = [
  '"quoted"',
  'a"b',
  "& ^ % %PATH% ! | < > ( ) , ; =",
  "&",
  "^",
  "%PATH%",
  "!PATH!",
  "a|b",
  "<in",
  ">out",
  "(x)",
  "a,b;c=d",
  "tab\there",
  "C:\\trailing\\",
  '\\\\"',
  "\\",
  "日本語 ✓ é 😀",
  "",
  "two  spaces ",
];
