// The tool's version, inlined at build time from package.json.
declare const __CONTRACTS_VERSION__: string | undefined;

export const VERSION: string =
  typeof __CONTRACTS_VERSION__ === 'string' ? __CONTRACTS_VERSION__ : '0.0.0-dev';
export const USER_AGENT = `contracts-gitops/${VERSION}`;
