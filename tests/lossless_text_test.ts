import assert from "node:assert/strict";
import { decodeLossless, encodeLossless } from "../lib/core/lossless_text.ts";

function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

Deno.test("valid UTF-8 decodes as usual", () => {
  const text = 'Café ☕ 𝄞 "q"';
  assert.equal(decodeLossless(new TextEncoder().encode(text)), text);
  assert.deepEqual(encodeLossless(text), new TextEncoder().encode(text));
});

Deno.test("bytes that are not UTF-8 survive decode and encode", () => {
  const cases = [
    bytes(0x43, 0x61, 0x66, 0xe9), // Latin-1 "Café"
    bytes(0xff, 0xfe, 0x00, 0x41),
    bytes(0xc0, 0xaf), // overlong
    bytes(0xed, 0xa0, 0x80), // an encoded surrogate
    bytes(0xf4, 0x90, 0x80, 0x80), // above U+10FFFF
    bytes(0xe2, 0x82), // truncated at the end
    bytes(0xe2, 0x82, 0x41, 0xe2, 0x82, 0xac), // truncated, then a valid euro sign
    bytes(0xef, 0xbb, 0xbf, 0x41, 0xe9, 0xef, 0xbb, 0xbf), // BOMs around a Latin-1 byte
  ];
  for (const input of cases) {
    const text = decodeLossless(input);
    assert.ok(!text.includes("\uFFFD"), `no replacement character for ${input}`);
    assert.deepEqual(encodeLossless(text), input);
  }
  assert.equal(decodeLossless(bytes(0x41, 0xe9, 0x42)).length, 3);
});

Deno.test("every byte sequence round-trips", () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
  for (let round = 0; round < 2000; round++) {
    const input = Uint8Array.from({ length: round % 40 }, random);
    assert.deepEqual(encodeLossless(decodeLossless(input)), input);
  }
});
