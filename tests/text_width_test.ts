import assert from "node:assert/strict";

Deno.test("text_width makes its grapheme Segmenter on first non-ASCII text, not when it loads", async () => {
  // Creating one loads ICU's break data: as long as a bare start, on every
  // command that merely imports the module.
  const intl = Intl as { Segmenter: typeof Intl.Segmenter };
  const original = intl.Segmenter;
  let made = 0;
  intl.Segmenter = class extends original {
    constructor(...args: ConstructorParameters<typeof original>) {
      super(...args);
      made++;
    }
  };
  try {
    const { displayWidth, truncateToWidth } = await import("../lib/ui/text_width.ts?lazy");
    assert.equal(made, 0, "no Segmenter at import");
    assert.equal(displayWidth("plain name"), 10);
    assert.equal(made, 0, "ASCII needs none");
    assert.equal(displayWidth("日本"), 4);
    assert.equal(truncateToWidth("日本語のセッション", 7), "日本語…");
    assert.equal(made, 1, "one, reused");
  } finally {
    intl.Segmenter = original;
  }
});
