// A check by hand, not a test: every contract in a sandbox's --data file (against dataContract.json),
// or every create body of a plan made with `plan --json` (against createDataContract.json),
// validated with ajv against OpenMetadata's own JSON Schemas ($refs resolved by file path). It
// needs the reference schemas beside the project, which a fresh clone does not have:
//   node scripts/check-openmetadata.mjs STATE.json|PLAN.json [../shared/reference/openmetadata-1.13/schemas]
// multipleOfPrecision: versions such as 1.2 are multiples of 0.1 to the server (Java decimals),
// not to a float division.
import { Ajv } from 'ajv';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const root = path.resolve(process.argv[3] ?? '../shared/reference/openmetadata-1.13/schemas');
const ajv = new Ajv({
  strict: false,
  allErrors: true,
  validateFormats: false,
  multipleOfPrecision: 8,
});
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return walk(file);
    return file.endsWith('.json') ? [file] : [];
  });
for (const file of walk(root)) {
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  delete schema.$id;
  delete schema.id;
  ajv.addSchema(schema, pathToFileURL(file).href);
}
const schema = (file) => ajv.getSchema(pathToFileURL(path.join(root, file)).href);
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// A plan (`plan --json`): the bodies its creates will send; else a --data file's contracts.
const [documents, schemaFile, what] = Array.isArray(input.changes)
  ? [
      input.changes.filter((c) => c.action === 'create').map((c) => c.create.body),
      'api/data/createDataContract.json',
      'create bodies',
    ]
  : [input.dataContracts, 'entity/data/dataContract.json', 'contracts'];
const validate = schema(schemaFile);
let bad = 0;
for (const document of documents) {
  if (!validate(document)) {
    bad++;
    console.log(
      document.fullyQualifiedName ?? document.name,
      JSON.stringify(validate.errors.slice(0, 3)),
    );
  }
}
console.log(
  `${documents.length} ${what}, ${bad} refused by OpenMetadata's ${path.basename(schemaFile)}`,
);
process.exitCode = bad === 0 ? 0 : 1;
