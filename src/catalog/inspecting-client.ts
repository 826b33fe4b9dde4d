// What `contracts doctor` asks a catalog beyond what the other commands do: the token's user's
// permissions on a kind of resource (OpenMetadata's `GET /v1/permissions/{resource}`), an entity
// or property type's id (`GET /v1/metadata/types/name/{name}`), whether a route is served (a GET
// the route's resource refuses with 405, where a catalog without it answers 404), and the one
// write `doctor --fix` makes: a custom property defined through the types API
// (`PUT /v1/metadata/types/{id}`, which needs Create on types: an admin's token).
import { CatalogClient } from './client.js';
import { CatalogError } from '../model/errors.js';
import { customPropertiesOf } from './openmetadata-answers.js';
import { ANY_ANSWER, ENTITY_ANSWER, PERMISSION_ANSWER, TYPE_ANSWER } from './shapes.js';
import type { CustomProperty } from './types.js';
import { pathSegment } from './url.js';

/** One operation of a ResourcePermission: `allow`, `deny`, `notAllow`, or a conditional one. */
export interface OperationAccess {
  operation: string;
  access: string;
}

/** A custom property to define: its name, what it is for, and the id of its property type. */
export interface NewCustomProperty {
  name: string;
  description: string;
  propertyTypeId: string;
}

export class InspectingClient extends CatalogClient {
  /**
   * `GET /v1/permissions/{resource}`: what the token's user may do on resources of that kind
   * (OpenMetadata's ResourcePermission), or null when the catalog has no such route (404).
   */
  async permissions(resource: string): Promise<OperationAccess[] | null> {
    try {
      const answer = await this.http.getJson<{ permissions: OperationAccess[] }>(
        `/permissions/${pathSegment(resource)}`,
        {},
        PERMISSION_ANSWER,
      );
      return answer.permissions;
    } catch (error) {
      if (error instanceof CatalogError && error.status === 404) return null;
      throw error;
    }
  }

  /** `GET /v1/metadata/types/name/{name}`: the id of an entity type or a property type. */
  async typeId(name: string): Promise<string> {
    const answer = await this.http.getJson<{ id: string }>(
      `/metadata/types/name/${pathSegment(name)}`,
      {},
      ENTITY_ANSWER,
    );
    return answer.id;
  }

  /**
   * The status a GET of `path` (under /v1) is answered with: 405 where the route is served for
   * other methods only, 404 where the catalog has no such route; 2xx as 200. Never a write.
   */
  async getStatus(path: string): Promise<number> {
    try {
      await this.http.getJson<unknown>(path, {}, ANY_ANSWER);
      return 200;
    } catch (error) {
      if (error instanceof CatalogError && error.status !== 401) return error.status;
      throw error;
    }
  }

  /**
   * `PUT /v1/metadata/types/{typeId}` with a CustomProperty of `property`'s name, description and
   * type: defines it (or replaces the one of that name); the type's custom properties after it.
   */
  async defineCustomProperty(
    typeId: string,
    property: NewCustomProperty,
  ): Promise<CustomProperty[]> {
    const body = {
      name: property.name,
      description: property.description,
      propertyType: { id: property.propertyTypeId, type: 'type' },
    };
    const answer = await this.http.write(
      'PUT',
      `/metadata/types/${pathSegment(typeId)}`,
      JSON.stringify(body),
      'application/json',
      TYPE_ANSWER,
    );
    return customPropertiesOf(answer);
  }
}
