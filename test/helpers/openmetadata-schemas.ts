// OpenMetadata's own JSON Schemas (the test's copy of 1.13's), compiled with ajv, for checking
// that what the sandbox stores is what a real server's model takes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';

const schemas = path.join(import.meta.dirname, '..', 'fixtures', 'openmetadata-1.13-schemas');

/** OpenMetadata's own JSON Schemas, by their file URLs ($refs resolved by path). */
export function openMetadataSchemas(): (file: string) => ReturnType<Ajv['getSchema']> {
  // multipleOfPrecision: a version such as 1.2 is a multiple of 0.1 to Java's decimals.
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    multipleOfPrecision: 8,
  });
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return walk(file);
      return file.endsWith('.json') ? [file] : [];
    });
  for (const file of walk(schemas)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete schema.$id;
    ajv.addSchema(schema, pathToFileURL(file).href);
  }
  return (file) => ajv.getSchema(pathToFileURL(path.join(schemas, file)).href);
}
