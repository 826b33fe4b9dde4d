// The SARIF view: a SARIF 2.1.0 log of results, as printed and as the Action's sarif-file holds.
import { sarifLog, type SarifResult } from '../plan/sarif-results.js';
import { VERSION } from '../support/version.js';

/** The log of `results` as text; with `failure`, a run that ended in that error. */
export function sarifText(results: readonly SarifResult[], failure?: string): string {
  return `${JSON.stringify(sarifLog(results, VERSION, failure), null, 2)}\n`;
}
