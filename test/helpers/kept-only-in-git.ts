// ODCS fields the catalog's contract has no field for, as YAML to follow a document's own: they
// stay only in git, and plan says so at their lines (contract/odcs-file.ts, keptOnlyInGit).
export const KEPT_ONLY_IN_GIT = [
  'servers:',
  '  - server: warehouse',
  '    type: postgres',
  '    host: db.example.com',
  '    port: 5432',
  '    database: dw',
  '    schema: s',
  'support:',
  '  - channel: "#data"',
  '    url: https://chat.example.com/data',
  '',
].join('\n');
