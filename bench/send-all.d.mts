import type { Pool } from 'undici';

export interface FloorRequest {
  method: 'GET' | 'PATCH';
  path: string;
  body?: string;
}

export function sendAll(
  pool: Pool,
  token: string,
  requests: readonly FloorRequest[],
  concurrency: number,
  options?: { parse?: boolean },
): Promise<string | null>;
