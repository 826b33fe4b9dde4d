// How an error that keeps a contract from being sent ends, and how several of them read as one:
// a plan says everything the catalog would refuse in a contract at once, so that one run tells
// everything to mend. Also the texts of one such refusal, columns the contract's asset lacks.
import type { ContractFile } from '../contract/parse.js';
import { pointerTo } from '../model/finding.js';

/** How every error that stops a contract from being sent ends. */
export const NOTHING_SENT = '; nothing will be sent for this contract';

/** Several findings of one contract as one text, each in turn. */
export function alsoJoined(parts: readonly string[]): string {
  return parts.join('. Also, ');
}

/** `errors` as one: each in turn (alsoJoined), ending once as each ends. */
export function joinRefusals(errors: readonly string[]): string {
  const parts = errors.map((error) =>
    error.endsWith(NOTHING_SENT) ? error.slice(0, -NOTHING_SENT.length) : error,
  );
  return `${alsoJoined(parts)}${NOTHING_SENT}`;
}

/**
 * Columns of a file its asset lacks (the catalog refuses any create or PATCH of such a contract
 * with a 400), and the asset's columns the file does not name; `fromLive` when the file leaves
 * `schema` out and they are the live contract's.
 */
export interface LackingColumns {
  names: string[];
  unnamed: string[];
  fromLive?: boolean;
}

/**
 * What a file's columns the asset lacks mean: as a warning (nothing sent), as an error (else); at
 * the first column's name, or at the schema the file leaves out (`fromLive`).
 */
export function lackingColumnsTexts(
  file: ContractFile,
  lacking: LackingColumns,
): { warning: string; error: string; pointer: string } {
  const { type, fullyQualifiedName } = file.contract.entity;
  const one = lacking.names.length === 1;
  const them = one ? 'it' : 'them';
  const namer = lacking.fromLive === true ? 'the live contract' : 'the file';
  const unnamed =
    lacking.unnamed.length === 0
      ? ''
      : ` (the ${type} has ${lacking.unnamed.join(', ')}, which ${namer} does not name: a rename?)`;
  const names = `${one ? 'column' : 'columns'} ${lacking.names.join(', ')}`;
  const where = `${one ? 'is' : 'are'} not among the columns of ${type} ${fullyQualifiedName} in the catalog${unnamed}`;
  if (lacking.fromLive === true) {
    // The file leaves schema out: the live one stays, and the catalog checks it on every PATCH.
    const text = `${names} of the live contract's schema, which this file leaves out, ${where}, and the catalog refuses (400) any change to a contract that names ${them}`;
    return {
      warning: `${text}; nothing is sent while the file matches it`,
      error: `${text}: add ${one ? 'the column' : 'the columns'} to the ${type} first, or set schema in the file without ${them}${NOTHING_SENT}`,
      pointer: '/schema',
    };
  }
  const text = `${names} ${where}, and the catalog refuses (400) a contract that names ${them}`;
  const schema = file.contract.schema as { name?: unknown }[] | undefined;
  const first = schema?.findIndex((column) => column.name === lacking.names[0]) ?? -1;
  return {
    pointer: first === -1 ? '/schema' : pointerTo('schema', first, 'name'),
    warning: `${text}; any change to it will be refused until they agree`,
    error: `${text}: add ${one ? 'the column' : 'the columns'} to the ${type} first, or remove ${them} from the file${NOTHING_SENT}`,
  };
}
