import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { MANIFEST } from "../core/installLayout.js";

/**
 * Is this package the copy `continuation-loop install` made in a project (its install record beside its hooks)? Its
 * hooks run on the install route, where the companion module never loads.
 */
export const readInstalledCopy = (packageRoot: string): boolean => existsSync(join(packageRoot, basename(MANIFEST)));
