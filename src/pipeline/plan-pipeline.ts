// From contract files to a plan, in three seams: load (the files, parsed and validated:
// load-files.ts), read (the catalog's live contracts: read-live.ts), decide (the plan:
// decide.ts). Nothing is sent if any file is invalid, and nothing is written here. Shared by the
// CLI and the GitHub Action.
//
// The seams overlap behind their interfaces: the catalog is asked what it is while the files
// load, and each file's live contract is read as soon as the file is found valid (reads only).
// The plan is made only once every file is valid; an invalid file ends the run with the files'
// problems alone, and stops the reads (test/overlap.test.ts).
import type { CatalogReader } from '../read/read-plan-inputs.js';
import { decide, type Planned } from './decide.js';
import { loadFiles, type Refused } from './load-files.js';
import type { PlanRequest } from './plan-request.js';
import { checkPruneable, connectCatalog, readLive } from './read-live.js';

export type { PlanRequest } from './plan-request.js';

export type PlanOutcome = Refused | Planned;

export async function planFromFiles(
  request: PlanRequest,
  reader: CatalogReader,
): Promise<PlanOutcome> {
  const catalog = connectCatalog(request, reader);
  const loading = loadFiles(request, catalog);
  const reading = readLive(loading.valid, catalog, request, reader, loading.planned);
  // Whatever ends the run before every file is found valid and storable stops the reads.
  try {
    const loaded = await loading.done;
    if (!loaded.ok) return loaded;
    checkPruneable(request, await request.repository);
    request.progress?.total?.(loaded.files.length);
    loading.commit();
    const read = await reading.finish(loaded.loaded.files);
    return decide(loaded, read, {
      catalogUrl: request.catalogUrl,
      gitCommit: await request.gitCommit,
      createdAt: (request.now?.() ?? new Date()).toISOString(),
    });
  } finally {
    loading.stop();
  }
}
