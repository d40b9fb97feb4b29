import assert from "node:assert/strict";
import {
  asJsonBytes,
  type JsonBytes,
  keyBytes,
  skipMemberValue,
  skipValue,
} from "../lib/transcript/json_bytes.ts";
import { findKey, stringAt, valueAt, walkArray, walkObject } from "../lib/transcript/json_read.ts";
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

Deno.test("valueAt and stringAt read long and short ASCII values alike", () => {
  const text = `{"cwd":"/home/alice/a-long-project-path","id":"short"}`;
  for (const bytes of forms(text)) {
    const cwd = valueAt(bytes, findKey(bytes, 0, keyBytes("cwd")), text.indexOf(',"id"'));
    assert.equal(cwd, "/home/alice/a-long-project-path");
    assert.equal(stringAt(bytes, findKey(bytes, 0, keyBytes("id"))), "short");
  }
});

Deno.test("stringAt keeps a leading byte order mark, decodes escapes and refuses bad ones", () => {
  for (const bom of forms('{"k":"\uFEFFx"}')) {
    assert.equal(stringAt(bom, findKey(bom, 0, keyBytes("k"))), "\uFEFFx");
  }
  for (const escaped of forms('{"k":"a\\nb\\u00e9"}')) {
    assert.equal(stringAt(escaped, findKey(escaped, 0, keyBytes("k"))), "a\nbé");
  }
  for (const invalid of forms('{"k":"a\\xb"}')) {
    assert.equal(stringAt(invalid, findKey(invalid, 0, keyBytes("k"))), undefined);
  }
});

Deno.test("findKey sees the object's own keys, in any order, past any value", () => {
  const text = JSON.stringify({
    nested: { key: "inner", list: [{ key: 1 }] },
    text: 'a "key": "fake"',
    key: "outer",
  });
  for (const bytes of forms(text)) {
    assert.equal(stringAt(bytes, findKey(bytes, 0, keyBytes("key"))), "outer");
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
        assert.equal(stringAt(bytes, start), parsed, `${kind} ${length}`);
      }
    }
  }
});

/**
 * Checks every object member's value in `line`, at any depth: skipMemberValue
 * must end exactly where skipValue ends. Returns how many values it checked.
 */
function checkMemberValues(line: JsonBytes, start = 0): number {
  const b = line.bytes;
  let i = start;
  while (b[i] === 0x20 || b[i] === 0x0a) i++;
  let checked = 0;
  if (b[i] === 0x7b) {
    walkObject(line, i, (nameStart, _nameEnd, valueStart) => {
      const end = skipValue(line, valueStart);
      assert.equal(skipMemberValue(line, valueStart), end, new TextDecoder().decode(b));
      // A key is a string too, and is followed by a colon, not by the next key.
      const key = nameStart - 1;
      assert.equal(skipMemberValue(line, key), skipValue(line, key), new TextDecoder().decode(b));
      checked += 1 + checkMemberValues(line, valueStart);
      return end;
    });
  } else if (b[i] === 0x5b) {
    walkArray(line, i, (valueStart) => {
      checked += checkMemberValues(line, valueStart);
      return skipValue(line, valueStart);
    });
  }
  return checked;
}

/** Member string values a key-anchored skip could mistake for shorter or longer ones. */
const MEMBER_TRAPS = [
  // The escaped text holds what the end of a value and the next key look like.
  `{"content":"x\\",\\"is_error\\":true","is_error":false}`,
  `{"content":"${"a".repeat(60)}\\",\\"k\\": 1, \\"j\\":2","k":1}`,
  // Backslash runs before quotes: escaped backslash then the real end, or an escaped quote.
  `{"content":"ends in a backslash \\\\","k":1}`,
  `{"content":"${"b".repeat(50)}\\\\\\"still inside\\\\","k":1}`,
  // Colons in the text, after escaped quotes and after plain bytes.
  `{"content":"${"c".repeat(50)} \\": x \\" : y http://z","k":1}`,
  // The member is the last of its object, then strings in an array, then a key.
  `{"l":[{"content":"${"d".repeat(50)}"},"x","y",{"k":1}],"z":2}`,
  `{"l":[{"content":"${"d".repeat(50)}"},"x\\",","y",{"k":1}],"z":2}`,
  // A string value whose text starts with a colon, right after the member.
  `{"a":"${"e".repeat(50)}","b":":x","c":1}`,
  `{"a":"${"e".repeat(50)}","b":[":x"],"c":1}`,
  `{"a":["${"e".repeat(50)}",":x"],"c":1}`,
  `{"l":[{"a":"${"e".repeat(50)}"},",",":x"],"z":1}`,
  // The member is the last of its object, then closings, openings and the next key.
  `{"a":{"c":"${"h".repeat(50)}"},"k":1}`,
  `{"a":[{"c":"${"h".repeat(50)}"},{"d":"x"}],"k":1}`,
  `{"a":[{"c":"${"h".repeat(50)}"},["x"],{"d":1}]}`,
  `{"a":[{"c":"${"h".repeat(50)}"},"x",{"d":1}]}`,
  `{"a":[{"c":"${"h".repeat(50)}"},["x",{"d":1}]]}`,
  `{"a":[{"c":"${"h".repeat(50)}" } , { "d" : "x" }] , "k" : 1}`,
  `{"a":[{"c":"${"h".repeat(50)}"},"x"],"k":1}`,
  `{"a":[{"c":"${"h".repeat(50)}"},"x",[":y"]]}`,
  `{"a":{"c":"${"h".repeat(50)}","e":["x"]},"k":1}`,
  // Spacing around the comma and the colon, and key names with other bytes.
  `{"a":"${"f".repeat(50)}" , "k" : 1}`,
  `{"a":"${"f".repeat(50)}",\n"k":1}`,
  `{"a":"${"f".repeat(50)}","my-key":1,"k":2}`,
  `{"a":"${"f".repeat(50)}","":1}`,
  `{"a":"${"f".repeat(50)}","k" :"v","j":2}`,
  `{"a":"${"f".repeat(50)}","k"\t:"v","j":2}`,
  `{"a":"","k":1}`,
  `{"a":"${"g".repeat(50)}"}`,
  // Unicode on both sides of the quotes and colons.
  `{"content":"数据 \\"✓\\": é ${"😀".repeat(20)}","is_error":false}`,
];

Deno.test("skipMemberValue ends where skipValue ends, whatever the text holds", () => {
  for (const text of MEMBER_TRAPS) {
    JSON.parse(text); // the fixture itself is valid
    for (const line of forms(text)) assert.notEqual(checkMemberValues(line), 0, text);
  }
});

Deno.test("skipMemberValue ends where skipValue ends on random JSON", () => {
  let state = 9;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pieces = ['"', "\\", ":", ",", "{", "}", "[", "]", " ", "a", "k_1", "é", "数", "\n"];
  const text = (): string => {
    let out = "";
    for (let n = Math.floor(random() * 80); n > 0; n--) {
      out += pieces[Math.floor(random() * pieces.length)];
    }
    return out;
  };
  const keys = ["k", "is_error", "a b", "", '"', ":", "x-y", "content"];
  const value = (depth: number): unknown => {
    const kind = random();
    if (depth > 3 || kind < 0.4) return text();
    if (kind < 0.5) return random() < 0.5 ? 7 : null;
    if (kind < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let n = Math.floor(random() * 5); n > 0; n--) {
      object[keys[Math.floor(random() * keys.length)] + n] = value(depth + 1);
    }
    return object;
  };
  let checked = 0;
  for (let round = 0; round < 1500; round++) {
    const compact = JSON.stringify({ first: value(0), second: value(0) });
    const spaced = JSON.stringify(JSON.parse(compact), null, round % 3 === 0 ? "\t" : 1);
    for (const source of [compact, spaced]) {
      for (const line of forms(source)) checked += checkMemberValues(line);
    }
  }
  assert.ok(checked > 10_000, `only ${checked} values checked`);
});
