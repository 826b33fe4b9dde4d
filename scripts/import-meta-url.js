// Injected into the CLI's CommonJS bundles (scripts/build.mjs), where it stands for
// `import.meta.url`: the URL of the bundle file that holds the code.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
