import assert from "node:assert/strict";
import { menuSetting } from "../lib/app/list/menu_setting.ts";
import { UserError } from "../lib/core/errors.ts";
import { join } from "../lib/core/path.ts";
import { createTestContext } from "./helpers/test_context.ts";

function withConfig(text: string | null, check: (menu: () => string) => void): void {
  const t = createTestContext();
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    if (text !== null) Deno.writeTextFileSync(join(t.ctx.paths.cmHome, "config.json"), text);
    check(() => menuSetting(t.ctx));
  } finally {
    t.cleanup();
  }
}

Deno.test('menu: the picker by default; "menu": "numbers" asks for the numbered menu', () => {
  withConfig(null, (menu) => assert.equal(menu(), "picker"));
  withConfig('{"permissions": "ask"}', (menu) => assert.equal(menu(), "picker"));
  withConfig('\ufeff{"menu": "Numbers"}', (menu) => assert.equal(menu(), "numbers"));
  withConfig('{"menu": "picker"}', (menu) => assert.equal(menu(), "picker"));
});

Deno.test("menu: a config that is not JSON leaves the picker (the launch names the problem)", () => {
  withConfig("{not json", (menu) => assert.equal(menu(), "picker"));
  withConfig("[1]", (menu) => assert.equal(menu(), "picker"));
});

Deno.test("menu: a value it does not know is refused in one line", () => {
  withConfig('{"menu": "fancy"}', (menu) => {
    assert.throws(menu, (error: unknown) => {
      assert.ok(error instanceof UserError);
      assert.match(error.message, /"menu" is "fancy"; expected "picker" or "numbers"/);
      return true;
    });
  });
});
