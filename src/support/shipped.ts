// The files the package ships under schemas/ (the JSON Schemas, the ODCS schema's built
// validator), found from wherever the running code is: schemas/ sits above the built chunk
// (dist/chunks), the CLI (dist/), the Action's bundle (action/) and the source files (src/…).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shipped `schemas/<relative>`, or undefined when the package holds none. */
export function shippedSchemaFile(relative: string): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'schemas', relative);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}
