// Running a contract on its data in the catalog (OpenMetadata's `POST /{id}/validate`) and
// reading a run's result: the requests, apart from the client's reads and writes of contracts.
import { RESULT_ANSWER } from './shapes.js';
import type { CatalogTransport } from './transport.js';
import type { ContractRun } from './types.js';
import { pathSegment } from './url.js';

/** `POST /v1/dataContracts/{id}/validate`: the answer may still be running; sent again only after a 429. */
export async function startRun(
  http: Pick<CatalogTransport, 'write'>,
  id: string,
): Promise<ContractRun> {
  return (await http.write(
    'POST',
    `/dataContracts/${pathSegment(id)}/validate`,
    '',
    'application/json',
    RESULT_ANSWER,
  )) as ContractRun;
}

/** `GET /v1/dataContracts/{id}/results/{resultId}`: a run's result as it is now. */
export function readRun(
  http: Pick<CatalogTransport, 'getJson'>,
  id: string,
  resultId: string,
): Promise<ContractRun> {
  return http.getJson<ContractRun>(
    `/dataContracts/${pathSegment(id)}/results/${pathSegment(resultId)}`,
    {},
    RESULT_ANSWER,
  );
}
