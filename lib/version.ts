/**
 * The claudecm version, read from package.json so it has one source.
 *
 * @module
 */

import packageJson from "../package.json" with { type: "json" };

/** The version `claudecm --version` prints. */
export const VERSION: string = packageJson.version;
