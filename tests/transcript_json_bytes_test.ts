import assert from "node:assert/strict";
import {
  asJsonBytes,
  findKey,
  keyBytes,
  plainStringAt,
  skipValue,
  valueAt,
} from "../lib/transcript/json_bytes.ts";
import { toLatin1 } from "../lib/transcript/latin1.ts";

const line = (text: string) => asJsonBytes(new TextEncoder().encode(text));

/** JSON texts whose bytes are tricky to walk: escapes, unicode, nesting, spacing. */
const VALUES = [
  '""',
  '"plain"',
  '"he said \\"hi\\""',
  '"ends with a backslash \\\\"',
  '"\\\\\\"quoted backslash\\\\\\""',
  '"unicode café 数据 ✓ 😀"',
  '"escaped unicode \\u00e9 \\ud83d\\ude00 \\u001b[31m"',
  '"\uFEFFstarts with a byte order mark"',
  `"${"x".repeat(47)}\\"${"y".repeat(200)}"`,
  `"${"x".repeat(46)}\\\\"`,
  `"${'\\"'.repeat(300)}"`,
  "0",
  "-12.5e+3",
  "true",
  "false",
  "null",
  '{"a":[1,{"b":"}]"},[]],"c":{}}',
  ' { "spaced" : [ 1 , "two" , { "three" : null } ] } ',
  '[{"type":"text","text":"{[\\"]}"}]',
];

/** Texts JSON.parse rejects for their structure, which the walk must not follow either. */
const MALFORMED = [
  '"never closes',
  '{"a" "b"}',
  '{"a":1 "b":2}',
  '{"a":1,}',
  "[1,2",
  "tru",
  "nul",
  "01",
  "1.",
  "-",
  '{"a":tru}',
  '{"a":1}}',
];

Deno.test("skipValue ends exactly where JSON.parse's value ends", () => {
  for (const text of VALUES) {
    JSON.parse(text); // the fixture itself is valid
    const bytes = line(text);
    const end = skipValue(bytes, 0);
    assert.notEqual(end, -1, text);
    assert.equal(new TextEncoder().encode(text).length, end + trailingSpace(text), text);
  }
});

Deno.test("skipValue gives -1 on structure JSON.parse rejects", () => {
  for (const text of MALFORMED) {
    assert.throws(() => JSON.parse(text), text);
    const bytes = line(text);
    const end = skipValue(bytes, 0);
    const whole = end !== -1 && end === bytes.bytes.length;
    assert.equal(whole, false, text);
  }
});

Deno.test("valueAt gives what JSON.parse gives, and throws where it throws", () => {
  for (const text of VALUES) {
    const bytes = line(text);
    const start = text.length - text.trimStart().length;
    assert.deepEqual(valueAt(bytes, start, skipValue(bytes, 0)), JSON.parse(text), text);
  }
  // Raw control characters and unknown escapes are not JSON.
  for (const text of ['"tab\there"', '"bad \\x escape"']) {
    assert.throws(() => JSON.parse(text));
    assert.throws(() => valueAt(line(text), 0, text.length), SyntaxError);
  }
});

Deno.test("valueAt and plainStringAt read long and short ASCII values alike", () => {
  const text = `{"cwd":"/home/alice/a-long-project-path","id":"short"}`;
  const bytes = line(text);
  const cwd = valueAt(bytes, findKey(bytes, 0, keyBytes("cwd")), text.indexOf(',"id"'));
  assert.equal(cwd, "/home/alice/a-long-project-path");
  assert.equal(plainStringAt(bytes, findKey(bytes, 0, keyBytes("id"))), "short");
});

Deno.test("plainStringAt keeps a leading byte order mark and refuses escapes", () => {
  const bom = line('{"k":"\uFEFFx"}');
  assert.equal(plainStringAt(bom, findKey(bom, 0, keyBytes("k"))), "\uFEFFx");
  const escaped = line('{"k":"a\\nb"}');
  assert.equal(plainStringAt(escaped, findKey(escaped, 0, keyBytes("k"))), undefined);
});

Deno.test("findKey sees the object's own keys, in any order, past any value", () => {
  const text = JSON.stringify({
    nested: { key: "inner", list: [{ key: 1 }] },
    text: 'a "key": "fake"',
    key: "outer",
  });
  const bytes = line(text);
  assert.equal(plainStringAt(bytes, findKey(bytes, 0, keyBytes("key"))), "outer");
  assert.equal(findKey(bytes, 0, keyBytes("missing")), -1);
});

Deno.test("toLatin1 keeps one character per byte, whatever the byte", () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const latin1 = toLatin1(bytes.subarray(3, 250));
  assert.equal(latin1.length, 247);
  for (let i = 0; i < latin1.length; i++) assert.equal(latin1.charCodeAt(i), i + 3);
});

function trailingSpace(text: string): number {
  return text.length - text.trimEnd().length;
}
