import assert from "node:assert/strict";
import {
  archivedSessions,
  InvalidRegistryFieldError,
  InvalidSessionNameError,
  mainSessions,
  malformedLines,
  parseRegistry,
  serializeRegistry,
  type Session,
  validateSessionDir,
  validateSessionName,
} from "../lib/core/registry.ts";
import {
  addAtTop,
  archiveSession,
  changeDir,
  moveToTop,
  renameSession,
  setTokens,
} from "../lib/core/registry_ops.ts";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";
const D = "44444444-4444-4444-8444-444444444444";

function session(guid: string): Session {
  return { guid, dir: "/d", desc: "New", tokens: "" };
}

Deno.test("parseRegistry reads main and archived sessions in file order", () => {
  const registry = parseRegistry(
    `${A}|/home/u/app|My App|155000\n\n${B}|/home/u/other dir|Other thing|\n[archived]\n${C}|/x|Old|12\n`,
  );
  assert.deepEqual(mainSessions(registry), [
    { guid: A, dir: "/home/u/app", desc: "My App", tokens: "155000" },
    { guid: B, dir: "/home/u/other dir", desc: "Other thing", tokens: "" },
  ]);
  assert.deepEqual(archivedSessions(registry), [{ guid: C, dir: "/x", desc: "Old", tokens: "12" }]);
});

Deno.test("a one-row registry is a list of one", () => {
  const registry = parseRegistry(`${A}|/p|Only|`);
  assert.equal(mainSessions(registry).length, 1);
  assert.equal(serializeRegistry(registry), `${A}|/p|Only|`);
  assert.equal(serializeRegistry(addAtTop(registry, session(B))), `${B}|/d|New|\n${A}|/p|Only|`);
  assert.equal(serializeRegistry(archiveSession(registry, A)), `[archived]\n${A}|/p|Only|`);
});

Deno.test("names with spaces and Windows paths survive a round trip", () => {
  const text = `${A}|C:\\Users\\alice\\Documents\\Some App 8|desktop work: phase 2 |42\n`;
  assert.equal(serializeRegistry(parseRegistry(text)), text);
  assert.equal(mainSessions(parseRegistry(text))[0].desc, "desktop work: phase 2 ");
});

Deno.test("malformed lines are kept verbatim and in place on rewrite", () => {
  const text = [
    `${A}|/p|First|`,
    "this line is garbage",
    `not-a-guid|/p|Bad id|`,
    `${B}|/q|Second|12k`,
    `${C}|/r|Third|`,
    "[archived]",
    "a|b",
  ].join("\n") + "\n";
  const registry = parseRegistry(text);
  assert.deepEqual(mainSessions(registry).map((s) => s.guid), [A, C]);
  assert.deepEqual(malformedLines(registry).map((m) => m.lineNumber), [2, 3, 4, 7]);
  assert.match(malformedLines(registry)[2].reason, /token count/);
  assert.equal(serializeRegistry(registry), text);
});

Deno.test("a second row for one session is kept as a malformed line: no operation reaches it", () => {
  const text = `${A}|/p|First|\n${B}|/q|Second|\n[archived]\n${A}|/old|Archived twin|7\n`;
  const registry = parseRegistry(text);
  assert.deepEqual(archivedSessions(registry), []);
  assert.deepEqual(malformedLines(registry).map((m) => [m.lineNumber, m.reason]), [
    [4, `session ${A} is already on line 1`],
  ]);
  const renamed = serializeRegistry(renameSession(registry, A, "Renamed"));
  assert.equal(renamed, text.replace("|First|", "|Renamed|"), "the twin row is kept as written");
});

Deno.test("a session id typed in upper case names the same session, and is kept as typed", () => {
  const text = "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE|/p|First|\n";
  const registry = parseRegistry(text);
  assert.deepEqual(mainSessions(registry).map((s) => s.guid), [
    "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
  ]);
  assert.equal(serializeRegistry(registry), text, "an unchanged row keeps its bytes");
  const twice = parseRegistry(`${text}aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee|/q|Again|\n`);
  assert.equal(mainSessions(twice).length, 1, "lower and upper case are one session");
});

Deno.test("CRLF line endings and a UTF-8 BOM (old PowerShell files) are kept", () => {
  const text = `\uFEFF${A}|C:\\p|One|\r\n[archived]\r\n${B}|C:\\q|Two|5\r\n`;
  const registry = parseRegistry(text);
  assert.equal(mainSessions(registry)[0].guid, A);
  assert.equal(archivedSessions(registry)[0].tokens, "5");
  assert.equal(serializeRegistry(registry), text);
});

Deno.test("an empty [archived] section keeps its marker; blank lines are kept", () => {
  const text = `\n${A}|/p|x|\n\n[archived]\n\n`;
  assert.equal(serializeRegistry(parseRegistry(text)), text);
  assert.equal(serializeRegistry(parseRegistry("")), "");
});

Deno.test("an unrelated change keeps each line's ending, blank lines and a decorated marker", () => {
  // An LF file with one CRLF line, blank and whitespace-only lines, and a marker with spaces.
  const text = [
    `${A}|/a|Alpha|1\n`,
    `\n`,
    `${B}|/b|Bravo|2\r\n`,
    `   \n`,
    ` [archived]  \r\n`,
    `\n`,
    `${C}|/c|Charlie|3`,
  ].join("");
  const registry = parseRegistry(text);
  assert.equal(serializeRegistry(registry), text);
  const retokened = serializeRegistry(setTokens(registry, B, 20));
  assert.equal(retokened, text.replace("Bravo|2\r\n", "Bravo|20\r\n"));
  const added = serializeRegistry(addAtTop(registry, session(D)));
  assert.equal(added, `${D}|/d|New|\n${text}`, "a new row takes the file's usual LF");
  const moved = serializeRegistry(moveToTop(registry, B));
  assert.equal(
    moved,
    `${B}|/b|Bravo|2\r\n${A}|/a|Alpha|1\n\n   \n` + text.slice(text.indexOf(" [")),
  );
  const archived = serializeRegistry(archiveSession(registry, A));
  assert.equal(archived, text.slice(text.indexOf("\n") + 1) + `\n${A}|/a|Alpha|1\n`);
});

Deno.test("a mostly CRLF file gives new rows CRLF", () => {
  const text = `${A}|C:\\a|Alpha|\r\n${B}|C:\\b|Bravo|\r\n${C}|C:\\c|Charlie|\n`;
  const added = serializeRegistry(addAtTop(parseRegistry(text), session(D)));
  assert.equal(added, `${D}|/d|New|\r\n${text}`);
});

Deno.test("a second [archived] line is kept as a malformed line, not a new section", () => {
  const text = `[archived]\n${A}|/p|x|\n[archived]\n`;
  const registry = parseRegistry(text);
  assert.equal(archivedSessions(registry).length, 1);
  assert.equal(malformedLines(registry).length, 1);
  assert.equal(serializeRegistry(registry), text);
});

Deno.test("validateSessionName rejects a pipe or a line break and accepts unicode", () => {
  assert.throws(() => validateSessionName("a|b"), InvalidSessionNameError);
  assert.throws(() => validateSessionName("a\nb"), InvalidSessionNameError);
  assert.throws(() => validateSessionName("a\rb"), InvalidSessionNameError);
  assert.equal(validateSessionName("Café ☕ \"quoted\" 'x'"), "Café ☕ \"quoted\" 'x'");
});

Deno.test("serializeRegistry refuses a row that would not read back as the same session", () => {
  const registry = parseRegistry(`${A}|/p|Keep|\n`);
  const bad: Array<[Partial<Session>, RegExp]> = [
    [{ dir: "/home/u/A|b" }, /folder contains '\|'/],
    [{ dir: "/home/u/two\nlines" }, /folder contains a line break/],
    [{ desc: "a|b" }, /name contains '\|'/],
    [{ desc: "a\r\nb" }, /name contains a line break/],
    [{ dir: "" }, /would not read back/],
    [{ guid: " " + B }, /would not read back/],
  ];
  for (const [fields, reason] of bad) {
    const row = { ...session(B), ...fields };
    assert.throws(() => serializeRegistry(addAtTop(registry, row)), InvalidRegistryFieldError);
    assert.throws(() => serializeRegistry(addAtTop(registry, row)), reason);
  }
  assert.throws(() => serializeRegistry(renameSession(registry, A, "x|y")), /name contains/);
  assert.throws(() => serializeRegistry(changeDir(registry, A, "/a\n")), /folder contains/);
  // A lone CR reads back as part of its field, so a row that has one can still be updated.
  const withCr = parseRegistry(`${A}|/old\rmac|Keep|\n`);
  assert.equal(serializeRegistry(setTokens(withCr, A, 3)), `${A}|/old\rmac|Keep|3\n`);
});

Deno.test("validateSessionDir refuses a folder path with '|' or a line break", () => {
  assert.throws(() => validateSessionDir("/home/u/A|b"), /cannot use the folder .*'\|'.*rename/);
  assert.throws(() => validateSessionDir("/home/u/a\nb"), /line break/);
  assert.throws(() => validateSessionDir("C:\\a\rb"), InvalidRegistryFieldError);
  assert.equal(validateSessionDir("/home/u/Café ☕ 'q'"), "/home/u/Café ☕ 'q'");
});
