import assert from "node:assert/strict";
import { createKeyDecoder, type Key } from "../lib/ui/picker/keys.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const named = (name: string): Key => ({ kind: "named", name } as Key);

function decodeAll(...reads: string[]): Key[] {
  const decoder = createKeyDecoder();
  const keys = reads.flatMap((read) => decoder.feed(bytes(read)));
  return [...keys, ...decoder.flush()];
}

Deno.test("keys: arrows in normal and application mode, with modifiers", () => {
  assert.deepEqual(decodeAll("\x1b[A\x1b[B\x1b[C\x1b[D"), [
    named("up"),
    named("down"),
    named("right"),
    named("left"),
  ]);
  assert.deepEqual(decodeAll("\x1bOA\x1bOB"), [named("up"), named("down")]);
  assert.deepEqual(decodeAll("\x1b[1;5A\x1b[1;2B"), [named("up"), named("down")]);
});

Deno.test("keys: Home and End in each terminal's spelling, PgUp and PgDn", () => {
  for (const home of ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"]) {
    assert.deepEqual(decodeAll(home), [named("home")], JSON.stringify(home));
  }
  for (const end of ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"]) {
    assert.deepEqual(decodeAll(end), [named("end")], JSON.stringify(end));
  }
  assert.deepEqual(decodeAll("\x1b[5~\x1b[6~\x1b[3~"), [
    named("pageUp"),
    named("pageDown"),
    named("delete"),
  ]);
});

Deno.test("keys: Ctrl letters, Enter (CR or LF), Tab, Backspace (DEL or BS)", () => {
  assert.deepEqual(decodeAll("\x0e\x10\x03\x04"), [
    { kind: "ctrl", letter: "n" },
    { kind: "ctrl", letter: "p" },
    { kind: "ctrl", letter: "c" },
    { kind: "ctrl", letter: "d" },
  ]);
  assert.deepEqual(decodeAll("\r\n\t\x7f\x08"), [
    named("enter"),
    named("enter"),
    named("tab"),
    named("backspace"),
    named("backspace"),
  ]);
});

Deno.test("keys: a lone ESC waits for a flush; ESC with a letter in one read is Alt", () => {
  const decoder = createKeyDecoder();
  assert.deepEqual(decoder.feed(bytes("\x1b")), []);
  assert.ok(decoder.pending());
  assert.deepEqual(decoder.flush(), [named("escape")]);
  assert.ok(!decoder.pending());
  assert.deepEqual(decodeAll("\x1bx"), [{ kind: "alt", key: { kind: "text", text: "x" } }]);
  assert.deepEqual(decodeAll("\x1b\x1b"), [named("escape"), named("escape")]);
});

Deno.test("keys: a sequence split across reads is one key", () => {
  const decoder = createKeyDecoder();
  assert.deepEqual(decoder.feed(bytes("\x1b[")), []);
  assert.deepEqual(decoder.feed(bytes("5")), []);
  assert.deepEqual(decoder.feed(bytes("~a")), [named("pageUp"), { kind: "text", text: "a" }]);
});

Deno.test("keys: UTF-8 split across reads is one character", () => {
  const decoder = createKeyDecoder();
  const euro = bytes("€日😀");
  assert.deepEqual(decoder.feed(euro.subarray(0, 1)), []);
  assert.deepEqual(decoder.feed(euro.subarray(1, 4)), [{ kind: "text", text: "€" }]);
  assert.deepEqual(decoder.feed(euro.subarray(4, 8)), [{ kind: "text", text: "日" }]);
  assert.deepEqual(decoder.feed(euro.subarray(8)), [{ kind: "text", text: "😀" }]);
  assert.ok(!decoder.pending());
});

Deno.test("keys: unknown sequences are dropped as unknown, text around them kept", () => {
  const keys = decodeAll("a\x1b[15~b\x1b[<0;3;4Mc");
  assert.deepEqual(keys.map((key) => key.kind), ["text", "unknown", "text", "unknown", "text"]);
});

Deno.test("keys: a bracketed paste is one paste, its line breaks no Enter, even split", () => {
  assert.deepEqual(decodeAll("\x1b[200~two\rlines\x1b[201~\r"), [
    { kind: "paste", text: "two\rlines" },
    named("enter"),
  ]);
  const decoder = createKeyDecoder();
  assert.deepEqual(decoder.feed(bytes("\x1b[200~ab")), []);
  assert.deepEqual(decoder.feed(bytes("c\r\x1b[20")), []);
  assert.deepEqual(decoder.feed(bytes("1~x")), [
    { kind: "paste", text: "abc\r" },
    { kind: "text", text: "x" },
  ]);
});
