import assert from "node:assert/strict";
import {
  asJsonBytes,
  findKey,
  type JsonBytes,
  keyBytes,
  plainStringAt,
  skipValue,
  valueAt,
} from "../lib/transcript/json_bytes.ts";
import { toLatin1 } from "../lib/transcript/latin1.ts";

/** The text as bare bytes and as a scanned line with its latin1 copy: both paths are checked. */
function forms(text: string): JsonBytes[] {
  const bytes = new TextEncoder().encode(text);
  return [asJsonBytes(bytes), { bytes, latin1: toLatin1(bytes) }];
}

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
    for (const bytes of forms(text)) {
      const end = skipValue(bytes, 0);
      assert.notEqual(end, -1, text);
      assert.equal(bytes.bytes.length, end + trailingSpace(text), text);
    }
  }
});

Deno.test("skipValue gives -1 on structure JSON.parse rejects", () => {
  for (const text of MALFORMED) {
    assert.throws(() => JSON.parse(text), text);
    for (const bytes of forms(text)) {
      const end = skipValue(bytes, 0);
      assert.equal(end !== -1 && end === bytes.bytes.length, false, text);
    }
  }
});

Deno.test("valueAt gives what JSON.parse gives, and throws where it throws", () => {
  for (const text of VALUES) {
    const start = text.length - text.trimStart().length;
    for (const bytes of forms(text)) {
      assert.deepEqual(valueAt(bytes, start, skipValue(bytes, 0)), JSON.parse(text), text);
    }
  }
  // Raw control characters and unknown escapes are not JSON.
  for (const text of ['"tab\there"', '"bad \\x escape"']) {
    assert.throws(() => JSON.parse(text));
    for (const bytes of forms(text)) {
      assert.throws(() => valueAt(bytes, 0, text.length), SyntaxError);
    }
  }
});

Deno.test("valueAt and plainStringAt read long and short ASCII values alike", () => {
  const text = `{"cwd":"/home/alice/a-long-project-path","id":"short"}`;
  for (const bytes of forms(text)) {
    const cwd = valueAt(bytes, findKey(bytes, 0, keyBytes("cwd")), text.indexOf(',"id"'));
    assert.equal(cwd, "/home/alice/a-long-project-path");
    assert.equal(plainStringAt(bytes, findKey(bytes, 0, keyBytes("id"))), "short");
  }
});

Deno.test("plainStringAt keeps a leading byte order mark and refuses escapes", () => {
  for (const bom of forms('{"k":"\uFEFFx"}')) {
    assert.equal(plainStringAt(bom, findKey(bom, 0, keyBytes("k"))), "\uFEFFx");
  }
  for (const escaped of forms('{"k":"a\\nb"}')) {
    assert.equal(plainStringAt(escaped, findKey(escaped, 0, keyBytes("k"))), undefined);
  }
});

Deno.test("findKey sees the object's own keys, in any order, past any value", () => {
  const text = JSON.stringify({
    nested: { key: "inner", list: [{ key: 1 }] },
    text: 'a "key": "fake"',
    key: "outer",
  });
  for (const bytes of forms(text)) {
    assert.equal(plainStringAt(bytes, findKey(bytes, 0, keyBytes("key"))), "outer");
    assert.equal(findKey(bytes, 0, keyBytes("missing")), -1);
  }
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

Deno.test("strings around the short-text and slice-copy lengths read as JSON.parse reads them", () => {
  for (const length of [1, 12, 13, 14, 255, 256, 257, 1000]) {
    for (const [kind, fill] of [["ascii", "a/b-c"], ["unicode", "é数✓"], ["tab", "ab\\tc"]]) {
      const body = fill.repeat(length).slice(0, length).replace(/\\$/, "x");
      const text = `{"k":"${body}","n":1}`;
      const parsed = JSON.parse(text).k;
      for (const bytes of forms(text)) {
        const start = findKey(bytes, 0, keyBytes("k"));
        assert.equal(valueAt(bytes, start, skipValue(bytes, start)), parsed, `${kind} ${length}`);
        const plain = plainStringAt(bytes, start);
        assert.equal(plain, body.includes("\\") ? undefined : parsed, `${kind} ${length}`);
      }
    }
  }
});
