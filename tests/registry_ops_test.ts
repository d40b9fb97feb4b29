import assert from "node:assert/strict";
import {
  archivedSessions,
  mainSessions,
  parseRegistry,
  type Registry,
  serializeRegistry,
} from "../lib/core/registry.ts";
import {
  addAtTop,
  archiveSession,
  changeDir,
  moveSession,
  moveToBottom,
  moveToTop,
  oldLabelFor,
  RegistryLookupError,
  removeSession,
  renameSession,
  replaceGuid,
  setTokens,
  swapGuid,
  unarchiveSession,
} from "../lib/core/registry_ops.ts";

const id = (n: number) =>
  `${String(n).repeat(8)}-${String(n).repeat(4)}-4${String(n).repeat(3)}-8${String(n).repeat(3)}-${
    String(n).repeat(12)
  }`;
const [A, B, C, D, E] = [1, 2, 3, 4, 5].map(id);

function sample(): Registry {
  return parseRegistry(
    `${A}|/a|Alpha|10\n${B}|/b|Beta|20\ngarbage line\n${C}|/c|Gamma|\n[archived]\n${D}|/d|Delta|1\n`,
  );
}
const order = (registry: Registry) => mainSessions(registry).map((s) => s.desc);

Deno.test("addAtTop puts a new session first and replaces a duplicate guid", () => {
  const added = addAtTop(sample(), { guid: E, dir: "/e", desc: "Epsilon", tokens: "" });
  assert.deepEqual(order(added), ["Epsilon", "Alpha", "Beta", "Gamma"]);
  const again = addAtTop(added, { guid: B, dir: "/b", desc: "Beta 2", tokens: "" });
  assert.deepEqual(order(again), ["Beta 2", "Epsilon", "Alpha", "Gamma"]);
});

Deno.test("moveToTop and moveToBottom reorder without touching the malformed line", () => {
  const top = moveToTop(sample(), C);
  assert.deepEqual(order(top), ["Gamma", "Alpha", "Beta"]);
  assert.match(serializeRegistry(top), /garbage line/);
  assert.deepEqual(order(moveToBottom(sample(), A)), ["Beta", "Gamma", "Alpha"]);
});

Deno.test("rename, setTokens, swapGuid and replaceGuid change one row", () => {
  assert.equal(mainSessions(renameSession(sample(), B, "Renamed"))[1].desc, "Renamed");
  assert.equal(mainSessions(changeDir(sample(), B, "/moved here"))[1].dir, "/moved here");
  assert.equal(mainSessions(setTokens(sample(), C, 1234))[2].tokens, "1234");
  assert.throws(() => setTokens(sample(), C, "12k"), RegistryLookupError);
  const swapped = mainSessions(swapGuid(sample(), B, E))[1];
  assert.deepEqual(swapped, { guid: E, dir: "/b", desc: "Beta", tokens: "" });
  const replaced = mainSessions(replaceGuid(sample(), B, E))[1];
  assert.deepEqual(replaced, { guid: E, dir: "/b", desc: "Beta", tokens: "20" });
  assert.equal(archivedSessions(renameSession(sample(), D, "D2"))[0].desc, "D2");
});

Deno.test("archive appends to archived; unarchive puts it back first", () => {
  const archived = archiveSession(sample(), A);
  assert.deepEqual(order(archived), ["Beta", "Gamma"]);
  assert.deepEqual(archivedSessions(archived).map((s) => s.desc), ["Delta", "Alpha"]);
  const back = unarchiveSession(archived, D);
  assert.deepEqual(order(back), ["Delta", "Beta", "Gamma"]);
  const firstArchive = archiveSession(parseRegistry(`${A}|/a|Alpha|\n`), A);
  assert.equal(serializeRegistry(firstArchive), `[archived]\n${A}|/a|Alpha|\n`);
});

Deno.test("remove drops the row from either section and reports unknown guids", () => {
  assert.deepEqual(order(removeSession(sample(), B)), ["Alpha", "Gamma"]);
  assert.equal(archivedSessions(removeSession(sample(), D)).length, 0);
  assert.throws(() => removeSession(sample(), E), RegistryLookupError);
  assert.deepEqual(order(removeSession(sample(), E, { ifPresent: true })), order(sample()));
});

Deno.test("moveSession moves by menu number in both directions and validates", () => {
  assert.deepEqual(order(moveSession(sample(), 1, 3)), ["Beta", "Gamma", "Alpha"]);
  assert.deepEqual(order(moveSession(sample(), 3, 1)), ["Gamma", "Alpha", "Beta"]);
  assert.deepEqual(order(moveSession(sample(), 2, 2)), ["Alpha", "Beta", "Gamma"]);
  assert.throws(() => moveSession(sample(), 0, 1), /no session #0/);
  assert.throws(() => moveSession(sample(), 1, 4), /no session #4/);
  assert.match(serializeRegistry(moveSession(sample(), 1, 3)), /garbage line/);
});

Deno.test("oldLabelFor allocates the lowest free (old N) per name and directory", () => {
  const registry = parseRegistry(
    [
      `${A}|/p|Work|`,
      `${B}|/p|Work (old)|`,
      `${C}|/p|Work (old 3)|`,
      `${D}|/elsewhere|Work (old 2)|`,
      `${E}|/p|Other (old)|`,
    ].join("\n"),
  );
  assert.equal(oldLabelFor(registry, A, { os: Deno.build.os }), "Work (old 2)");
  assert.equal(oldLabelFor(registry, D, { os: Deno.build.os }), "Work (old)");
  // B itself is excluded, so its own "(old)" is free again.
  assert.equal(oldLabelFor(registry, B, { os: Deno.build.os }), "Work (old)");
  assert.equal(oldLabelFor(parseRegistry(`${A}|/p|Solo|`), A, { os: Deno.build.os }), "Solo (old)");
});

Deno.test("oldLabelFor: on Windows a folder spelled in another case or with / is the same folder", () => {
  // The OS is a parameter: Windows' rule runs on every OS.
  const registry = parseRegistry(
    [`${A}|C:\\Work|Work|`, `${B}|c:/work|Work (old)|`, `${C}|C:\\Other|Work (old 2)|`].join("\n"),
  );
  assert.equal(oldLabelFor(registry, A, { os: "windows" }), "Work (old 2)");
  assert.equal(oldLabelFor(registry, A, { os: "linux" }), "Work (old)");
});
