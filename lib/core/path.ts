/**
 * Path functions without `node:path`: importing any `node:` module makes
 * Deno load its Node layer, which costs every claudecm run start-up time.
 * `posix` and `win32` behave as `node:path`'s (tests/path_test.ts compares
 * them); the bare functions are this OS's flavour, as `node:path`'s are.
 *
 * @module
 */

import { posix } from "./path/posix.ts";
import { win32 } from "./path/win32.ts";
import type { PathFlavour } from "./path/shared.ts";
// The one platform fact below lib/platform (it imports nothing): the bare functions are this OS's.
import { hostOs } from "../platform/os.ts";

export type { PathFlavour };
export { posix, win32 };

const host: PathFlavour = hostOs === "windows" ? win32 : posix;

/** This OS's separator: `\` on Windows, `/` elsewhere. */
export const sep: PathFlavour["sep"] = host.sep;
/** `join` of this OS's flavour. */
export const join: PathFlavour["join"] = host.join;
/** `resolve` of this OS's flavour. */
export const resolve: PathFlavour["resolve"] = host.resolve;
/** `normalize` of this OS's flavour. */
export const normalize: PathFlavour["normalize"] = host.normalize;
/** `isAbsolute` of this OS's flavour. */
export const isAbsolute: PathFlavour["isAbsolute"] = host.isAbsolute;
/** `relative` of this OS's flavour. */
export const relative: PathFlavour["relative"] = host.relative;
/** `dirname` of this OS's flavour. */
export const dirname: PathFlavour["dirname"] = host.dirname;
/** `basename` of this OS's flavour. */
export const basename: PathFlavour["basename"] = host.basename;
/** `extname` of this OS's flavour. */
export const extname: PathFlavour["extname"] = host.extname;
