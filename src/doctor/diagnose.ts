// The doctor's round of the configured catalog, in order: the token's claims (no request), reach
// (the preflight every command makes, with its `/api` hint), the release and profile, what the
// token's user may do, the custom properties the tool writes, the optional routes. Nothing is
// written, except the custom properties `--fix` defines. A catalog that cannot be reached, or
// whose release the tool refuses, ends the round there.
import type { InspectingClient, OperationAccess } from '../catalog/inspecting-client.js';
import type { CustomProperty } from '../catalog/types.js';
import {
  AuthError,
  CatalogError,
  ConfigError,
  ForbiddenError,
  NetworkError,
} from '../model/errors.js';
import type { ProfileSetting } from '../model/profile.js';
import { resolveCatalog } from '../profile/profile.js';
import { releaseName } from '../profile/releases.js';
import type { Check, DoctorReport } from './checks.js';
import { defineMissing, neededProperties, propertyChecks } from './custom-properties.js';
import { permissionChecks } from './permissions.js';
import { routeChecks, specRouteCheck } from './routes.js';
import { tokenCheck } from './token-claims.js';

export interface DiagnoseInput {
  catalogUrl: string;
  setting: ProfileSetting;
  token: string;
  /** Whether some contract file declares a version (then contractVersion is needed too). */
  versioned: boolean;
  fix: boolean;
  now: number;
}

/** Why a request failed, as a check says it (never the token). */
function failure(client: InspectingClient, error: unknown): string {
  if (error instanceof CatalogError)
    return `${error.status}: ${client.redact(error.serverMessage)}`;
  return client.redact(error instanceof Error ? error.message : String(error));
}

export async function diagnose(
  client: InspectingClient,
  input: DiagnoseInput,
): Promise<DoctorReport> {
  const checks: Check[] = [tokenCheck(input.token, input.now)];
  const report: DoctorReport = {
    catalogUrl: input.catalogUrl,
    profile: null,
    release: null,
    checks,
  };
  try {
    await client.preflight();
    checks.push({
      id: 'reach',
      status: 'ok',
      message: `The catalog at ${input.catalogUrl} answers and takes the token`,
    });
  } catch (error) {
    // The preflight's verdict: a wrong address, a refused token, a catalog that is down.
    if (!(
      error instanceof ConfigError ||
      error instanceof AuthError ||
      error instanceof NetworkError
    ))
      throw error;
    checks.push({ id: 'reach', status: 'error', message: client.redact(error.message) });
    return report;
  }
  let profile: 'spec' | 'openmetadata';
  try {
    const connected = await resolveCatalog(input.setting, client);
    profile = connected.profile;
    report.profile = profile;
    report.release = connected.release;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push({ id: 'release', status: 'error', message: client.redact(error.message) });
    return report;
  }
  const how =
    input.setting === 'auto'
      ? 'asked through GET /v1/system/version'
      : `the profile set: ${input.setting}, from --catalog-profile, CATALOG_PROFILE or .contracts.yaml`;
  checks.push({
    id: 'release',
    status: 'ok',
    message:
      profile === 'openmetadata'
        ? `The catalog is ${releaseName(report.release)}: the tool plans with the openmetadata profile and that release's behaviour (${how})`
        : `The catalog is planned with the spec profile: the specification's interface (${how})`,
  });
  if (profile === 'openmetadata') {
    checks.push(...(await openMetadataPermissions(client)));
    checks.push(...(await customPropertyRound(client, input, report)));
    checks.push(...(await routeChecks((path) => client.getStatus(path))));
  } else {
    checks.push(...(await specPermissions(client)));
    checks.push({
      id: 'customProperty.spec',
      status: 'info',
      message:
        "A catalog of the spec profile keeps a contract's extension as it is given: there is no custom property to define",
    });
    if (input.fix) report.fixed = [];
    checks.push(specRouteCheck());
  }
  return report;
}

async function openMetadataPermissions(client: InspectingClient): Promise<Check[]> {
  let contracts: OperationAccess[] | null;
  let tables: OperationAccess[] | null;
  try {
    [contracts, tables] = await Promise.all([
      client.permissions('dataContract'),
      client.permissions('table'),
    ]);
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    return [
      {
        id: 'permission',
        status: 'info',
        message: `Could not read what the token may do (GET /v1/permissions/dataContract answered ${failure(client, error)}): a missing permission will show as a 403 naming the operation when a command needs it`,
      },
    ];
  }
  if (contracts === null || tables === null)
    return [
      {
        id: 'permission',
        status: 'info',
        message:
          'The catalog does not say what the token may do (GET /v1/permissions answered 404): a missing permission will show as a 403 naming the operation when a command needs it',
      },
    ];
  return permissionChecks({ dataContract: contracts, table: tables });
}

/** The spec has no permissions route: viewing is read; the rest only a write could show. */
async function specPermissions(client: InspectingClient): Promise<Check[]> {
  const cannot: Check = {
    id: 'permission.spec',
    status: 'info',
    message:
      'A catalog of the spec profile has no permissions route, so what apply (update data contracts), prune and search need cannot be checked without writing: a missing one shows as 403 FORBIDDEN ("user lacks permission to update data contracts") at apply\'s first PATCH, which stops the run there',
  };
  try {
    await client.listPage('/dataContracts', { limit: '1' });
    return [
      {
        id: 'permission.plan',
        status: 'ok',
        message: 'plan: the token may view data contracts (GET /v1/dataContracts answered)',
      },
      cannot,
    ];
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    return [
      {
        id: 'permission.plan',
        status: 'error',
        message: `plan: the token may not view data contracts (${failure(client, error)})`,
        fix: "give the token's user the permission to view data contracts",
      },
      cannot,
    ];
  }
}

async function customPropertyRound(
  client: InspectingClient,
  input: DiagnoseInput,
  report: DoctorReport,
): Promise<Check[]> {
  const needed = neededProperties(input.versioned);
  let defined: CustomProperty[];
  try {
    defined = await client.customProperties('dataContract');
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    return [
      {
        id: 'customProperty',
        status: 'warning',
        message: `Could not read the custom properties of data contracts (GET /v1/metadata/types/name/dataContract answered ${failure(client, error)}): plan will say what it cannot check`,
        fix: "give the token's user ViewCustomFields on dataContract",
      },
    ];
  }
  const missing = needed.filter((name) => !defined.some((property) => property.name === name));
  if (!input.fix || missing.length === 0) {
    if (input.fix) report.fixed = [];
    return propertyChecks(defined, needed);
  }
  try {
    report.fixed = await defineMissing(client, missing);
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    report.fixed = missing.map((property) => ({
      property,
      outcome: 'refused',
      message: `Could not define ${property}: ${failure(client, error)}`,
    }));
  }
  if (report.fixed.some((result) => result.outcome === 'defined'))
    defined = await client.customProperties('dataContract');
  return propertyChecks(defined, needed);
}
