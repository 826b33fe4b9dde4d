// A check by hand, not a test: every contract in a sandbox's --data file, validated with ajv
// against OpenMetadata's own JSON Schemas ($refs resolved by file path). It needs the reference
// schemas beside the project, which a fresh clone does not have:
//   node scripts/check-openmetadata.mjs STATE.json [../shared/reference/openmetadata-1.13/schemas]
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
const validate = ajv.getSchema(
  pathToFileURL(path.join(root, 'entity/data/dataContract.json')).href,
);
const state = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let bad = 0;
for (const c of state.dataContracts) {
  if (!validate(c)) {
    bad++;
    console.log(c.fullyQualifiedName, JSON.stringify(validate.errors.slice(0, 3)));
  }
}
console.log(
  `${state.dataContracts.length} contracts, ${bad} refused by OpenMetadata's dataContract.json`,
);
process.exitCode = bad === 0 ? 0 : 1;
