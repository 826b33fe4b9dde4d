// Which of OpenMetadata's optional routes the catalog serves, asked without writing: a GET of a
// path whose resource takes only POST or PUT is answered 405 where the route is served (Jersey
// matches the path, then refuses the method), and 404 where it is not (or, for a path that could
// be a contract's id, where `/{id}` takes it and finds no contract).
import type { Check } from './checks.js';

/** Asks the status a GET of a path under /v1 is answered with (InspectingClient.getStatus). */
export type StatusProbe = (path: string) => Promise<number>;

interface Route {
  id: string;
  /** The route as its users call it. */
  route: string;
  /** The GET that tells, under /v1. */
  probe: string;
  what: string;
  /** What is lost without it, and what to do. */
  without: string;
  fix: string;
}

/** No contract has this id: a path that needs one names it, and nothing is read or written. */
const NO_CONTRACT = '00000000-0000-0000-0000-000000000000';

const ROUTES: readonly Route[] = [
  {
    id: 'route.dryRun',
    route: 'POST /v1/dataContracts/validate',
    probe: '/dataContracts/validate',
    what: "the server's dry run of a create",
    without: "plan checks a new contract with the tool's own rules only",
    fix: 'OpenMetadata 1.12 or later serves it',
  },
  {
    id: 'route.runs',
    route: 'POST /v1/dataContracts/{id}/validate',
    probe: `/dataContracts/${NO_CONTRACT}/validate`,
    what: 'contract runs, which verify uses',
    without: 'verify cannot run contracts on their data',
    fix: 'an OpenMetadata release that runs contracts',
  },
  {
    id: 'route.lineage',
    route: 'PUT /v1/lineage, GET /v1/lineage/{type}/name/{fqn}',
    probe: '/lineage',
    what: 'lineage, which impact reads',
    without: 'plan cannot say who a breaking change reaches downstream',
    fix: 'a catalog that serves lineage',
  },
  {
    id: 'route.odcs',
    route: 'POST|PUT /v1/dataContracts/odcs, GET /v1/dataContracts/{id}/odcs',
    probe: '/dataContracts/odcs',
    what: 'ODCS import and export',
    without:
      "the catalog's own ODCS documents cannot be compared with `contracts export --format odcs`",
    fix: 'an OpenMetadata release with ODCS v3.1 routes',
  },
];

/** One check per optional route: served (405), not served (404, a warning), or not told. */
export async function routeChecks(probe: StatusProbe): Promise<Check[]> {
  return Promise.all(
    ROUTES.map(async (route): Promise<Check> => {
      const status = await probe(route.probe);
      if (status === 405)
        return {
          id: route.id,
          status: 'ok',
          message: `The catalog serves ${route.what} (${route.route})`,
        };
      if (status === 404)
        return {
          id: route.id,
          status: 'warning',
          message: `The catalog does not serve ${route.what} (GET /v1${route.probe} answered 404): ${route.without}`,
          fix: route.fix,
        };
      return {
        id: route.id,
        status: 'info',
        message: `Could not tell whether the catalog serves ${route.what}: GET /v1${route.probe} answered ${status}`,
      };
    }),
  );
}

/** What a catalog of the spec profile serves of these: none of them. */
export function specRouteCheck(): Check {
  return {
    id: 'route.spec',
    status: 'info',
    message:
      "A catalog of the spec profile serves none of OpenMetadata's optional routes: no dry run of a create, no contract runs (verify), no lineage (impact), no ODCS routes",
  };
}
