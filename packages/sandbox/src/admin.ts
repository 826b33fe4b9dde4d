// The sandbox's admin routes under /sandbox (not part of the catalog interface): the request log,
// the whole state, and adding or removing assets and contracts as a test or a demo needs them.
import type { IncomingMessage } from 'node:http';
import type { Json } from './catalog.js';
import { ApiError, parseJsonBody, readBody } from './http.js';
import { checkSeed, SeedError } from './seed.js';
import { latest, type RequestRecord, type Reply } from './request-log.js';
import type { Store } from './store.js';

const reply = (status: number, body: unknown): Reply => ({ status, body });

export async function handleAdmin(
  method: string,
  route: string[],
  request: IncomingMessage,
  store: Store,
  log: RequestRecord[],
): Promise<Reply> {
  const jsonBody = async (): Promise<Json> => {
    const body = parseJsonBody(await readBody(request));
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ApiError(400, 'the body must be a JSON object');
    return body as Json;
  };
  const [resource, id] = route;
  if (resource === 'requests' && id === undefined) {
    if (method === 'GET') return reply(200, { data: latest(log) });
    if (method === 'DELETE') {
      log.splice(0, log.length);
      return reply(204, undefined);
    }
  }
  if (resource === 'state' && id === undefined && method === 'GET')
    return reply(200, store.snapshot());
  if (resource === 'assets') {
    if (method === 'POST' && id === undefined) {
      const checked = await checkOrFail(
        async () => checkSeed({ assets: [await jsonBody()] }).assets[0]!,
      );
      store.putAsset(checked);
      return reply(201, checked);
    }
    if (method === 'DELETE' && id !== undefined) {
      if (!store.removeAsset(id)) throw new ApiError(404, `asset ${id} not found`);
      return reply(204, undefined);
    }
  }
  if (resource === 'dataContracts') {
    if (method === 'POST' && id === undefined) {
      const checked = await checkOrFail(
        async () => checkSeed({ dataContracts: [await jsonBody()] }).dataContracts[0]!,
      );
      const clash = store.contractByFqn(checked.fullyQualifiedName);
      if (clash !== undefined && clash.id !== checked.id)
        throw new ApiError(
          409,
          `a contract named ${checked.fullyQualifiedName} exists with id ${clash.id}`,
        );
      store.putContract(checked);
      return reply(201, checked);
    }
    if (method === 'DELETE' && id !== undefined) {
      if (!store.removeContract(id)) throw new ApiError(404, `dataContract ${id} not found`);
      return reply(204, undefined);
    }
  }
  throw new ApiError(404, `Route not found: ${method} /sandbox/${route.join('/')}`);
}

async function checkOrFail<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof SeedError) throw new ApiError(400, error.message);
    throw error;
  }
}
