import assert from "node:assert/strict";
import { join } from "node:path";
import { byteSearch, fileMayMatch, lineHolds } from "../lib/transcript/raw_match.ts";
import { toLatin1 } from "../lib/transcript/latin1.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("byteSearch finds a word in any ASCII case, and only the whole word's bytes", () => {
  const search = byteSearch("kinkajou15");
  assert.ok(search.test(bytes('{"text":"the KinkaJou15 report"}')));
  assert.ok(search.test(bytes("kinkajou15")));
  assert.ok(!search.test(bytes("kinkajou1")));
  assert.ok(!search.test(bytes("kinkajou 15")));
  assert.ok(byteSearch("a").test(bytes("xxA")));
});

Deno.test("fileMayMatch finds a word that spans two reads", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "big.jsonl");
    const chunk = 4 * 1024 * 1024;
    // The first read fills 4 MiB + 4 bytes ("okapi" less one): "OK" in it, "API" in the next.
    const filler = "x".repeat(chunk + 2);
    Deno.writeTextFileSync(path, `${filler}OKAPI-rollout\n`);
    assert.ok(fileMayMatch(path, byteSearch("okapi")), "split across the 4 MiB boundary");
    assert.ok(!fileMayMatch(path, byteSearch("okapis")));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("byteSearch agrees with a plain case-insensitive search on many random texts", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabet = 'abkAKB15 "\\';
  for (let round = 0; round < 2000; round++) {
    const word = Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => "ab1k"[Math.floor(random() * 4)],
    )
      .join("");
    const text = Array.from(
      { length: Math.floor(random() * 40) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join("");
    const expected = text.toLowerCase().includes(word);
    assert.equal(byteSearch(word).test(bytes(text)), expected, `${word} in ${text}`);
  }
});

Deno.test("fileMayMatch through latin1 (a word with a rare letter) agrees with the byte search", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "t.jsonl");
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const alphabet = 'azZkK1 é"';
    for (let round = 0; round < 1500; round++) {
      const word = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        "azk1"[Math.floor(random() * 4)]).join("") + "z";
      const text = Array.from(
        { length: Math.floor(random() * 30) },
        () =>
          alphabet[Math.floor(random() * alphabet.length)],
      ).join("");
      Deno.writeTextFileSync(path, text);
      const search = byteSearch(word);
      assert.notEqual(search.rareAt, undefined);
      const expected = text.toLowerCase().includes(word);
      assert.equal(fileMayMatch(path, search, toLatin1), expected, `${word} in ${text}`);
      assert.equal(fileMayMatch(path, search), expected, `${word} in ${text}`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("lineHolds through a line's latin1 copy agrees with the byte search", () => {
  for (
    const [word, text] of [["zebu", "a Zebu here"], ["zebu", "zeb u"], ["kiwi", "KIWI"], [
      "qat",
      "é qat",
    ]]
  ) {
    const line = bytes(text);
    const search = byteSearch(word);
    assert.equal(
      lineHolds(search, { bytes: line, latin1: toLatin1(line) }),
      search.test(line),
      text,
    );
    assert.equal(lineHolds(search, { bytes: line }), search.test(line), text);
  }
});
